package naming

import "testing"

func TestExported(t *testing.T) {
	tests := []struct{ in, want string }{
		{"get_order_status", "GetOrderStatus"},
		{"order_id", "OrderID"},
		{"orderId", "OrderID"},
		{"api-url", "APIURL"},
		{"HTTPServer", "HTTPServer"},
		{"user.uuid", "UserUUID"},
		{"reply order question", "ReplyOrderQuestion"},
		{"type", "Type"},
		{"func", "Func"},
		{"default", "Default"},
		{"@type", "Type"},
		{"3d_model", "X3dModel"},
		{"PENDING", "Pending"},
		{"IN_TRANSIT", "InTransit"},
		{"in_progress", "InProgress"},
		{"v2Items", "V2Items"},
		{"$", ""},
		{"naïve_name", "NaVeName"},
		{"json_ld", "JSONLd"},
	}
	for _, tt := range tests {
		if got := Exported(tt.in); got != tt.want {
			t.Errorf("Exported(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

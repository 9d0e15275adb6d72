package runtime

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// largePage is a list result shaped like a page of GitHub pull requests:
// 30 items of about 20 KB, each with a hundred scalar fields and nested
// user and repository objects.
func largePage() []byte {
	var b strings.Builder
	b.WriteByte('[')
	for i := range 30 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"number":%d,"title":"Pull request %d","state":"open","html_url":"https://github.com/o/r/pull/%d",`, i, i, i)
		user := `{"login":"octocat","id":1,"avatar_url":"https://github.com/images/error/octocat_happy.gif","site_admin":false,"url":"https://api.github.com/users/octocat"}`
		fmt.Fprintf(&b, `"user":%s,"assignees":[%s,%s],`, user, user, user)
		repo := strings.Builder{}
		repo.WriteString(`{"id":1296269,"owner":` + user)
		for f := range 80 {
			fmt.Fprintf(&repo, `,"field_%d":"https://api.github.com/repos/octocat/Hello-World/%d{/sha}"`, f, f)
		}
		repo.WriteByte('}')
		fmt.Fprintf(&b, `"head":{"ref":"new-topic","repo":%s},"base":{"ref":"master","repo":%s}`, repo.String(), repo.String())
		for f := range 40 {
			fmt.Fprintf(&b, `,"extra_%d":"value with \"escapes\" and text %d"`, f, f)
		}
		b.WriteByte('}')
	}
	b.WriteByte(']')
	return []byte(b.String())
}

// BenchmarkFieldSelection compares, on one large result, the projection
// of a typical selection with json.Valid, which runTool already runs on
// every structured result, and with decoding the result into generic
// values, dropping the fields and encoding it again (what a reflection
// based projection costs).
func BenchmarkFieldSelection(b *testing.B) {
	page := largePage()
	paths := []string{"number", "title", "state", "user.login", "html_url"}
	b.Run("project", func(b *testing.B) {
		b.SetBytes(int64(len(page)))
		b.ReportAllocs()
		dst := make([]byte, 0, 8<<10)
		for b.Loop() {
			var err error
			if dst, err = projectJSON(dst[:0], page, newFieldSel(paths)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json.Valid", func(b *testing.B) {
		b.SetBytes(int64(len(page)))
		b.ReportAllocs()
		for b.Loop() {
			if !json.Valid(page) {
				b.Fatal("invalid")
			}
		}
	})
	b.Run("unmarshal-marshal", func(b *testing.B) {
		b.SetBytes(int64(len(page)))
		b.ReportAllocs()
		for b.Loop() {
			var items []map[string]any
			if err := json.Unmarshal(page, &items); err != nil {
				b.Fatal(err)
			}
			for _, it := range items {
				for k := range it {
					if k != "number" && k != "title" && k != "state" && k != "user" && k != "html_url" {
						delete(it, k)
					}
				}
				it["user"] = map[string]any{"login": it["user"].(map[string]any)["login"]}
			}
			if _, err := json.Marshal(items); err != nil {
				b.Fatal(err)
			}
		}
	})
}

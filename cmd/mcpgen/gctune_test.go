package main

import "testing"

func TestGCPercent(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int
	}{
		{0, 100},               // unknown: the default
		{heapFloor / 4, 300},   // goal: the floor
		{heapFloor / 8, 700},   // goal: the floor
		{heapFloor / 2, 100},   // twice live is the floor
		{heapFloor, 100},       // above: the default
		{1 << 40, 100},         // far above
		{heapFloor/2 - 1, 100}, // just under half the floor: rounds to the default
	} {
		if got := gcPercent(c.live); got != c.want {
			t.Errorf("gcPercent(%d) = %d, want %d", c.live, got, c.want)
		}
	}
}

//go:build race

package main

// raceEnabled scales the fault specs down under the race detector, which
// slows the generator by an order of magnitude: the bound stays a hang
// detector.
const raceEnabled = true

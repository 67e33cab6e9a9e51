//go:build !race

package pebble

// raceEnabled says the race detector is on (race_test.go).
const raceEnabled = false

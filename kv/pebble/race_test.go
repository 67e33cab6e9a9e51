//go:build race

package pebble

// raceEnabled says the race detector is on: allocation counts, which it
// changes, are not checked then.
const raceEnabled = true

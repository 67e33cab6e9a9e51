//go:build !race

package session_test

// raceEnabled says the race detector is on (race_test.go).
const raceEnabled = false

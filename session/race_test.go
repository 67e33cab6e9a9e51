//go:build race

package session_test

// raceEnabled says the race detector is on: property tests, which it
// slows several times over, draw fewer random cases (raceScale).
const raceEnabled = true

//go:build race

package zorder

// raceEnabled says the race detector is on: the brute-force property
// tests, which it slows several times over, draw fewer cases (raceScale).
const raceEnabled = true

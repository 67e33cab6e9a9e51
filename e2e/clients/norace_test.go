//go:build !race

package clients

const raceEnabled = false

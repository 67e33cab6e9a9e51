package main

import (
	"fmt"
	"math"
	"time"
)

// dataset describes the generated readings: sensors × perSensor rows. Every
// row is a pure function of (seed, sensor, slot), so query generators can
// recompute existing primary keys without keeping the data in memory.
type dataset struct {
	seed      uint64
	sensors   int
	perSensor int
	notes     int // distinct note values
}

// Fixed domain of the generated values; query boxes are sized against it.
var (
	baseTime  = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	timeSpan  = 30 * 24 * time.Hour
	latLo     = 40.0
	lonLo     = -74.5
	degreeBox = 1.0 // lat and lon each span [lo, lo+degreeBox)
)

// reading is one row of the readings table.
type reading struct {
	sensorID int64
	ts       time.Time
	celsius  float64
	lat, lon float64
	note     *string // nil is SQL NULL
}

func newDataset(seed uint64, rows, perSensor int) dataset {
	if perSensor < 1 {
		perSensor = 1
	}
	sensors := rows / perSensor
	if sensors < 1 {
		sensors = 1
	}
	notes := sensors * perSensor / 100
	if notes < 1 {
		notes = 1
	}
	return dataset{seed: seed, sensors: sensors, perSensor: perSensor, notes: notes}
}

func (d dataset) rows() int { return d.sensors * d.perSensor }

// slot is the width of one sensor's reporting interval; a sensor reports once
// per slot at a random offset, so its timestamps are distinct.
func (d dataset) slot() time.Duration { return timeSpan / time.Duration(d.perSensor) }

// rowAt returns the i-th row in insertion order: time slot by time slot, every
// sensor once per slot, as a fleet of sensors would report.
func (d dataset) rowAt(i int) reading {
	return d.row(int64(i%d.sensors), i/d.sensors)
}

// row returns sensor's reading in time slot j.
func (d dataset) row(sensor int64, j int) reading {
	h := splitmix{state: d.seed ^ uint64(sensor)*0x9E3779B97F4A7C15 ^ uint64(j)<<40}
	slotMicros := d.slot().Microseconds()
	r := reading{
		sensorID: sensor,
		ts:       baseTime.Add(time.Duration(int64(j)*slotMicros+int64(h.next()%uint64(slotMicros))) * time.Microsecond),
		lat:      latLo + h.float()*degreeBox,
		lon:      lonLo + h.float()*degreeBox,
	}
	// Box–Muller: celsius around 15 with a spread of 8.
	u1, u2 := h.float(), h.float()
	r.celsius = math.Round((15+8*math.Sqrt(-2*math.Log(1-u1))*math.Cos(2*math.Pi*u2))*100) / 100
	if h.next()%50 != 0 { // 2% NULL notes
		n := fmt.Sprintf("code-%05d", h.next()%uint64(d.notes))
		r.note = &n
	}
	return r
}

// splitmix is SplitMix64: tiny, fast and good enough to make reproducible
// data from a seed.
type splitmix struct{ state uint64 }

func (s *splitmix) next() uint64 {
	s.state += 0x9E3779B97F4A7C15
	z := s.state
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// float returns a value in [0, 1).
func (s *splitmix) float() float64 { return float64(s.next()>>11) / (1 << 53) }

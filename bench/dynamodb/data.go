package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"
)

// The domain of the generated readings; query boxes are placed inside it.
var (
	baseTime = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	timeSpan = 30 * 24 * time.Hour
)

const (
	latMin, lonMin = 40.0, -74.5 // lat in [40, 41), lon in [-74.5, -73.5)
	degrees        = 1.0
	perSensor      = 100 // readings per sensor over timeSpan
)

// reading is one row of the readings table.
type reading struct {
	sensorID int64
	ts       time.Time
	celsius  float64
	lat, lon float64
	note     any // string, or nil for NULL
}

// dataset generates rows as a pure function of (seed, row number), so a run
// with the same seed loads the same data.
type dataset struct {
	seed    uint64
	sensors int
}

func newDataset(seed uint64, rows int) dataset {
	return dataset{seed: seed, sensors: max(rows/perSensor, 1)}
}

func (d dataset) rows() int { return d.sensors * perSensor }

// rowAt returns row i in insertion order: slot by slot, every sensor once per
// slot, as a fleet reports. A sensor's timestamps fall in distinct slots, so
// (sensor_id, ts) is unique.
func (d dataset) rowAt(i int) reading {
	sensor, slot := int64(i%d.sensors), i/d.sensors
	rng := rand.New(rand.NewPCG(d.seed, uint64(sensor)<<20|uint64(slot)))
	slotMicros := timeSpan.Microseconds() / perSensor
	r := reading{
		sensorID: sensor,
		ts:       baseTime.Add(time.Duration(int64(slot)*slotMicros+rng.Int64N(slotMicros)) * time.Microsecond),
		lat:      latMin + rng.Float64()*degrees,
		lon:      lonMin + rng.Float64()*degrees,
		celsius:  math.Round((15+8*rng.NormFloat64())*100) / 100,
	}
	if rng.IntN(50) != 0 { // 2% NULL notes
		r.note = fmt.Sprintf("code-%05d", rng.IntN(max(d.rows()/100, 1)))
	}
	return r
}

// box is one query box: lat and lon closed intervals, and for 3-D boxes a
// closed ts interval in microseconds since the Unix epoch.
type box struct {
	latLo, latHi, lonLo, lonHi float64
	threeD                     bool
	tsLo, tsHi                 int64
}

// boxClass is a family of boxes of one dimensionality and volume fraction.
type boxClass struct {
	dims     int     // 2: lat/lon; 3: lat/lon/ts
	fraction float64 // of the lat/lon area (2-D) or of the lat/lon/ts volume (3-D)
}

func (c boxClass) String() string {
	return fmt.Sprintf("%d-D box, %s of the %s", c.dims, percent(c.fraction), map[int]string{2: "area", 3: "volume"}[c.dims])
}

func percent(f float64) string {
	return fmt.Sprintf("%g%%", math.Round(f*100*1000)/1000)
}

// boxes returns n boxes of class c placed uniformly in the domain. A 2-D box
// is a square of side sqrt(fraction) degrees; a 3-D box takes the same
// fraction cbrt(fraction) of each of lat, lon and the 30 days, so both hold
// about fraction × rows readings.
func (c boxClass) boxes(seed uint64, classNo, n int) []box {
	rng := rand.New(rand.NewPCG(seed, 0xb0c5<<16|uint64(classNo)))
	side := math.Sqrt(c.fraction)
	if c.dims == 3 {
		side = math.Cbrt(c.fraction)
	}
	span := timeSpan.Microseconds()
	out := make([]box, n)
	for i := range out {
		b := box{latLo: latMin + rng.Float64()*(degrees-side*degrees), lonLo: lonMin + rng.Float64()*(degrees-side*degrees)}
		b.latHi, b.lonHi = b.latLo+side*degrees, b.lonLo+side*degrees
		if c.dims == 3 {
			width := int64(side * float64(span))
			b.threeD = true
			b.tsLo = baseTime.UnixMicro() + rng.Int64N(span-width)
			b.tsHi = b.tsLo + width
		}
		out[i] = b
	}
	return out
}

// contains is the box test, for checking what each method returns.
func (b box) contains(lat, lon float64, ts int64) bool {
	if lat < b.latLo || lat > b.latHi || lon < b.lonLo || lon > b.lonHi {
		return false
	}
	return !b.threeD || (ts >= b.tsLo && ts <= b.tsHi)
}

// inBox counts the dataset's readings inside b.
func (d dataset) inBox(b box) int {
	n := 0
	for i := range d.rows() {
		r := d.rowAt(i)
		if b.contains(r.lat, r.lon, r.ts.UnixMicro()) {
			n++
		}
	}
	return n
}

// tsText formats microseconds since the epoch as a timestamp literal.
func tsText(us int64) string {
	return time.UnixMicro(us).UTC().Format("2006-01-02 15:04:05.999999")
}

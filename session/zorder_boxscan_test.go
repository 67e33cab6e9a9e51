package session_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// TestZOrderBoxScanAgainstFullScan checks the Z-order skip-scan's per-entry
// box test (zorder.BoxScan, which passes the entries of cells wholly inside
// the box untested) against a full scan: covering and non-covering scans,
// aggregates, top-N in both directions, through the default and the
// data-aligned layout, for boxes in the data, at its edges and beyond,
// empty boxes, points on stored values and boxes leaving attributes
// unbounded.
func TestZOrderBoxScanAgainstFullScan(t *testing.T) {
	_, sess := newSession(t, memStore(t))
	mustExec(t, sess, `CREATE TABLE readings (id bigint PRIMARY KEY, lat float8, lon float8, ts timestamp NOT NULL, c int, note text)`)
	rng := rand.New(rand.NewPCG(29, 30))
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	const rows, span = 4000, 30 * 24 * time.Hour
	var lats []float64
	for start := 0; start < rows; start += 500 {
		var vals []string
		for id := start; id < start+500; id++ {
			// Coarse values, so that boxes meet stored values exactly.
			lat, lon := 40+float64(rng.IntN(1000))/1000, -74.5+float64(rng.IntN(1000))/1000
			latText := fmt.Sprintf("%.3f", lat)
			if id%97 == 0 {
				latText = "NULL"
			} else {
				lats = append(lats, lat)
			}
			ts := base.Add(time.Duration(rng.Int64N(int64(span))))
			vals = append(vals, fmt.Sprintf("(%d, %s, %.3f, '%s', %d, 'n%d')", id, latText, lon, ts.Format("2006-01-02 15:04:05.999999"), rng.IntN(100), id%13))
		}
		mustExec(t, sess, `INSERT INTO readings VALUES `+strings.Join(vals, ", "))
	}
	mustExec(t, sess, `CREATE INDEX plain ON readings USING zorder (lat, lon, ts) INCLUDE (c, note)`)
	mustExec(t, sess, `CREATE INDEX aligned ON readings USING zorder (lat, lon, ts) INCLUDE (c, note) WITH (align = 'data')`)

	var wheres []string
	for q := 0; q < 40; q++ {
		lat, lon := 40+float64(rng.IntN(1000))/1000, -74.5+float64(rng.IntN(1000))/1000
		side := []float64{0.001, 0.05, 0.2, 0.6}[q%4]
		from := base.Add(time.Duration(rng.Int64N(int64(span))))
		switch q % 8 {
		case 0: // a 2-D box, ts unbounded
			wheres = append(wheres, fmt.Sprintf(`lat BETWEEN %.3f AND %.3f AND lon BETWEEN %.3f AND %.3f`, lat, lat+side, lon, lon+side))
		case 1: // a 3-D box
			wheres = append(wheres, fmt.Sprintf(`lat BETWEEN %.3f AND %.3f AND lon BETWEEN %.3f AND %.3f AND ts >= '%s' AND ts < '%s'`,
				lat, lat+side, lon, lon+side, from.Format(time.DateTime), from.Add(span/4).Format(time.DateTime)))
		case 2: // at and past the data's edges
			wheres = append(wheres, fmt.Sprintf(`lat >= %.3f AND lon <= %.3f`, 40+0.999-side, -74.5+side))
		case 3: // one attribute only
			wheres = append(wheres, fmt.Sprintf(`lon BETWEEN %.3f AND %.3f`, lon, lon+side))
		case 4: // a point on a stored value
			p := lats[rng.IntN(len(lats))]
			wheres = append(wheres, fmt.Sprintf(`lat = %.3f AND lon BETWEEN %.3f AND %.3f`, p, lon-side, lon+side))
		case 5: // empty
			wheres = append(wheres, fmt.Sprintf(`lat BETWEEN %.3f AND %.3f AND lon > %.3f`, lat+side, lat, lon))
		case 6: // outside the data
			wheres = append(wheres, fmt.Sprintf(`lat BETWEEN 10 AND 20 AND lon BETWEEN %.3f AND %.3f`, lon, lon+side))
		default: // the whole data
			wheres = append(wheres, `lat BETWEEN -90 AND 90 AND lon BETWEEN -180 AND 180`)
		}
	}
	for _, where := range wheres {
		for _, sel := range []string{
			`SELECT %s id, lat, lon, ts, c FROM readings WHERE %s ORDER BY id`,
			`SELECT %s id, note FROM readings WHERE %s ORDER BY id`,
			`SELECT %s count(*), sum(c), min(ts), max(lat) FROM readings WHERE %s`,
			`SELECT %s lat FROM readings WHERE %s ORDER BY lat LIMIT 7`,
			`SELECT %s lon FROM readings WHERE %s ORDER BY lon DESC LIMIT 7`,
		} {
			want := mustExec(t, sess, fmt.Sprintf(sel, "/*+ IGNORE_INDEX(readings, plain, aligned) */", where))
			for _, ix := range []string{"plain", "aligned"} {
				sql := fmt.Sprintf(sel, "/*+ USE_INDEX(readings, "+ix+") */", where)
				if got := mustExec(t, sess, sql); strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Fatalf("%s:\n%d rows %.200q\na full scan %d rows %.200q", sql, len(got), got, len(want), want)
				}
			}
		}
	}
}

package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// The star workload: readings is the fact table, sensors and regions its
// dimensions, and the query classes are what a dashboard over them sends.

// starRegions is the size of the regions dimension.
const starRegions = 50

var (
	sensorKinds = []string{"thermometer", "hygrometer", "barometer", "anemometer", "rain gauge"}
	countries   = []string{"US", "CA", "MX", "BR", "FR", "DE", "JP", "IN"}
)

const (
	sensorsColumns = `id BIGINT PRIMARY KEY, name TEXT, region_id INT, kind TEXT`
	regionsColumns = `id INT PRIMARY KEY, name TEXT, country TEXT`
)

// sensorDim is one row of the sensors dimension, a pure function of (seed,
// id) like the readings, so both systems and every run see the same rows.
func (d dataset) sensorDim(id int64) []any {
	// A different stream from the readings' (which mix in the slot).
	h := splitmix{state: d.seed ^ uint64(id)*0xD1B54A32D192ED03 ^ 0x5EED5EED}
	return []any{id, fmt.Sprintf("sensor-%06d", id), int32(h.next() % starRegions), sensorKinds[h.next()%uint64(len(sensorKinds))]}
}

func regionDim(id int) []any {
	return []any{int32(id), fmt.Sprintf("region-%02d", id), countries[id%len(countries)]}
}

// loadDimensions creates and fills sensors and regions on both systems,
// the same rows through the same multi-row INSERTs, then lets PostgreSQL
// gather statistics on them as a user would after a load.
func loadDimensions(ctx context.Context, cfg config, ds dataset, zconn, pconn *pgx.Conn) error {
	with := fmt.Sprintf(" WITH (shards = %d)", cfg.shards)
	sensors := make([][]any, ds.sensors)
	for i := range sensors {
		sensors[i] = ds.sensorDim(int64(i))
	}
	regions := make([][]any, starRegions)
	for i := range regions {
		regions[i] = regionDim(i)
	}
	for _, sys := range []struct {
		name string
		conn *pgx.Conn
		with string
	}{{"zproxy", zconn, with}, {"PostgreSQL", pconn, ""}} {
		if err := execAll(ctx, sys.conn,
			"CREATE TABLE sensors ("+sensorsColumns+")"+sys.with,
			"CREATE TABLE regions ("+regionsColumns+")"+sys.with); err != nil {
			return fmt.Errorf("%s: %w", sys.name, err)
		}
		start := time.Now()
		if err := insertRows(ctx, sys.conn, "sensors", []string{"id", "name", "region_id", "kind"}, sensors, cfg.batch); err != nil {
			return fmt.Errorf("%s: %w", sys.name, err)
		}
		if err := insertRows(ctx, sys.conn, "regions", []string{"id", "name", "country"}, regions, cfg.batch); err != nil {
			return fmt.Errorf("%s: %w", sys.name, err)
		}
		logf("  %s: %d sensors and %d regions in %s", sys.name, len(sensors), len(regions), time.Since(start).Round(time.Millisecond))
	}
	return execAll(ctx, pconn, "VACUUM ANALYZE sensors", "VACUUM ANALYZE regions")
}

// insertRows inserts rows into table with multi-row INSERTs of batch rows.
func insertRows(ctx context.Context, conn *pgx.Conn, table string, cols []string, rows [][]any, batch int) error {
	for from := 0; from < len(rows); from += batch {
		to := min(from+batch, len(rows))
		var b strings.Builder
		fmt.Fprintf(&b, "INSERT INTO %s (%s) VALUES ", table, strings.Join(cols, ", "))
		args := make([]any, 0, (to-from)*len(cols))
		for i, r := range rows[from:to] {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteByte('(')
			for j := range cols {
				if j > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "$%d", len(args)+j+1)
			}
			b.WriteByte(')')
			args = append(args, r...)
		}
		if _, err := conn.Exec(ctx, b.String(), args...); err != nil {
			return fmt.Errorf("insert into %s: %w", table, err)
		}
	}
	return nil
}

// starFrom is the join every star class reads: each reading with its sensor
// and the sensor's region, written in the order a dashboard's query builder
// writes it (fact table first).
const starFrom = `FROM readings r JOIN sensors s ON s.id = r.sensor_id JOIN regions g ON g.id = s.region_id`

// starBox is the box condition on the fact table over $1..$4 in each
// system's spelling (see boxPredicate).
func starBox(forPG bool, mode pgBoxIndex) string {
	if forPG && mode == pgBoxGiST {
		return "point(r.lon, r.lat) <@ box(point($3, $1), point($4, $2))"
	}
	return "r.lat BETWEEN $1 AND $2 AND r.lon BETWEEN $3 AND $4"
}

// randomDay returns the start of a whole day of the data's time span.
func randomDay(r *rand.Rand) time.Time {
	return baseTime.AddDate(0, 0, r.IntN(int(timeSpan/(24*time.Hour))))
}

// starClasses are the dashboard's queries. Each has a factSQL, the number of
// fact rows it joins (readings rows that satisfy every condition), which
// PostgreSQL answers outside the timing to give zproxy's items read per
// fact row.
//
// With whatIf, variants follow that show what another plan would cost on
// zproxy today, with the same parameters as the class they vary: the
// dimensions hashed (HASH_JOIN hint), the dimension read first and the fact
// table looked up by its primary key per sensor (LATERAL), and the fact
// scan alone without the joins.
func starClasses(ds dataset, mode pgBoxIndex, aggRows int, whatIf bool) []queryClass {
	side := boxSide(aggRows, ds.rows(), 1)
	class := func(name, sel, where, tail string, ordered bool, gen func(r *rand.Rand) []any) queryClass {
		z := strings.ReplaceAll(where, "{box}", starBox(false, mode))
		p := strings.ReplaceAll(where, "{box}", starBox(true, mode))
		return queryClass{
			name:    name,
			zproxy:  sel + " " + starFrom + " WHERE " + z + tail,
			pg:      sel + " " + starFrom + " WHERE " + p + tail,
			factSQL: "SELECT count(*) " + starFrom + " WHERE " + p,
			ordered: ordered,
			approx:  true,
			gen:     gen,
		}
	}
	const byRegion = "SELECT g.name, count(*), avg(r.celsius)"
	cs := []queryClass{
		class("box by region", byRegion, "{box}", " GROUP BY g.name", false, func(r *rand.Rand) []any {
			a, b, c, d := randomBox(r, side)
			return []any{a, b, c, d}
		}),
		// The last 6 hours of one kind of sensor: the fact filter is a time
		// range, the dimension filter a sensor column.
		class("6h × kind by region", byRegion, "r.ts >= $1 AND r.ts < $2 AND s.kind = $3", " GROUP BY g.name", false, func(r *rand.Rand) []any {
			from := baseTime.Add(time.Duration(r.IntN(int(timeSpan/time.Hour)-6)) * time.Hour)
			return []any{from, from.Add(6 * time.Hour), sensorKinds[r.IntN(len(sensorKinds))]}
		}),
		class("day top-10 regions", "SELECT g.name, count(*) AS n", "r.ts >= $1 AND r.ts < $2", " GROUP BY g.name ORDER BY n DESC, g.name LIMIT 10", true, func(r *rand.Rand) []any {
			day := randomDay(r)
			return []any{day, day.AddDate(0, 0, 1)}
		}),
		class("sensor day", "SELECT r.ts, r.celsius, s.name, s.kind, g.name, g.country", "r.sensor_id = $1 AND r.ts >= $2 AND r.ts < $3", " ORDER BY r.ts", true, func(r *rand.Rand) []any {
			day := randomDay(r)
			return []any{r.Int64N(int64(ds.sensors)), day, day.AddDate(0, 0, 1)}
		}),
	}
	for i := range cs {
		cs[i].stream = uint64(i + 1)
	}
	if !whatIf {
		return cs
	}
	box, window, day := cs[0], cs[1], cs[2]
	vary := func(base queryClass, name, zproxy, pg string) queryClass {
		v := base
		v.name, v.zproxy, v.pg = base.name+": "+name, zproxy, pg
		return v
	}
	const hashed = "SELECT /*+ HASH_JOIN(s, g) */"
	onlyFact := func(c queryClass, sel string) (string, string) {
		cut := func(q string) string {
			return sel + " FROM readings r" + q[strings.Index(q, " WHERE "):strings.Index(q, " GROUP BY")]
		}
		return cut(c.zproxy), cut(c.pg)
	}
	bz, bp := onlyFact(box, "SELECT count(*), avg(r.celsius)")
	dz, dp := onlyFact(day, "SELECT count(*)")
	lateral := `SELECT g.name, count(*), avg(r.celsius) FROM sensors s
  JOIN LATERAL (SELECT celsius FROM readings WHERE sensor_id = s.id AND ts >= $1 AND ts < $2) r ON true
  JOIN regions g ON g.id = s.region_id WHERE s.kind = $3 GROUP BY g.name`
	return append(cs,
		vary(box, "HASH_JOIN(s, g)", strings.Replace(box.zproxy, "SELECT", hashed, 1), box.pg),
		vary(box, "fact scan alone", bz, bp),
		vary(window, "sensors first (LATERAL)", lateral, lateral),
		vary(day, "HASH_JOIN(s, g)", strings.Replace(day.zproxy, "SELECT", hashed, 1), day.pg),
		vary(day, "fact scan alone", dz, dp),
	)
}

package executor_test

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

const readingsDDL = `CREATE TABLE readings (
  sensor_id BIGINT NOT NULL,
  ts        TIMESTAMP NOT NULL,
  celsius   DOUBLE PRECISION,
  lat       DOUBLE PRECISION,
  lon       DOUBLE PRECISION,
  note      TEXT,
  PRIMARY KEY (sensor_id, ts DESC)
) WITH (shards = 4, mutability = 'immutable_rows')`

var readingsIndexes = []string{
	`CREATE INDEX by_note ON readings (note, ts) INCLUDE (celsius)`,
	`CREATE INDEX by_place ON readings USING zorder (lat, lon, ts) INCLUDE (celsius, note)`,
}

// null marks a NULL cell in generated rows.
const null = "NULL"

var baseTime = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// genReadings makes n readings-shaped rows as SQL literal texts (unquoted),
// from a seeded generator: sensors 1..sensors, timestamps on an hourly
// grid (distinct per sensor), coordinates around New York, a few notes,
// and NULLs in every nullable column.
func genReadings(rng *rand.Rand, n, sensors int) [][]string {
	rows := make([][]string, 0, n)
	seen := map[[2]int64]bool{}
	notes := []string{"ok", "hot", "cold", "over", "overheat", "check", "o", ""}
	for len(rows) < n {
		sensor := int64(rng.IntN(sensors) + 1)
		hour := int64(rng.IntN(24 * 60))
		if seen[[2]int64{sensor, hour}] {
			continue
		}
		seen[[2]int64{sensor, hour}] = true
		ts := baseTime.Add(time.Duration(hour) * time.Hour).Format("2006-01-02 15:04:05")
		row := []string{strconv.FormatInt(sensor, 10), ts, null, null, null, null}
		if rng.IntN(10) > 0 {
			row[2] = strconv.FormatFloat(float64(rng.IntN(600)-100)/10, 'f', 1, 64)
		}
		if rng.IntN(20) > 0 {
			// Two decimals, so boxes hit exact values sometimes.
			row[3] = strconv.FormatFloat(40+float64(rng.IntN(200))/100, 'f', 2, 64)
			row[4] = strconv.FormatFloat(-75+float64(rng.IntN(200))/100, 'f', 2, 64)
		}
		if rng.IntN(8) > 0 {
			row[5] = notes[rng.IntN(len(notes))]
		}
		rows = append(rows, row)
	}
	return rows
}

// insertSQL renders rows as INSERT statements of at most 200 rows each.
func insertSQL(table string, rows [][]string) []string {
	var out []string
	for start := 0; start < len(rows); start += 200 {
		end := min(start+200, len(rows))
		var b strings.Builder
		fmt.Fprintf(&b, "INSERT INTO %s VALUES ", table)
		for i, r := range rows[start:end] {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString("(")
			for j, c := range r {
				if j > 0 {
					b.WriteString(", ")
				}
				b.WriteString(literal(c, j == 1 || j == 5))
			}
			b.WriteString(")")
		}
		out = append(out, b.String())
	}
	return out
}

func literal(c string, quoted bool) string {
	if c == null {
		return "NULL"
	}
	if quoted {
		return "'" + strings.ReplaceAll(c, "'", "''") + "'"
	}
	return c
}

// values parses a generated row into the table's typed values.
func values(tb *catalog.Table, row []string) []sqltypes.Value {
	out := make([]sqltypes.Value, len(row))
	for i, c := range row {
		if c == null {
			out[i] = sqltypes.Null
			continue
		}
		v, err := sqltypes.ParseText(tb.Columns[i].Type, c)
		if err != nil {
			panic(err)
		}
		out[i] = v
	}
	return out
}

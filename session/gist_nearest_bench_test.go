package session_test

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/credentials"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
	zdynamo "github.com/zproxy/zproxy/kv/dynamodb"
)

// BenchmarkSpatialNearest measures kNN over a gist index on points: 20,000
// points uniform over a one-degree square of SRID 4326 (5,000 on DynamoDB
// Local, run when DYNAMODB_ENDPOINT is set), and SELECT id ... ORDER BY
// geom <-> point LIMIT k for k = 1, 10 and 100 around random centres, some
// near the data's edge. The query is covered by the index (id is the
// primary key), so its items are index entries alone. It reports the
// entries read per row returned, the store requests per query and the
// search's batches per query (from EXPLAIN ANALYZE), the figures
// bench/README.md records. The prepared sub-benchmarks run the search as
// a prepared statement with its centre as parameters (a generic plan).
func BenchmarkSpatialNearest(b *testing.B) {
	stores := []struct {
		name string
		n    int
		open func() kv.Store
	}{{"pebble", 20000, func() kv.Store { return memStore(&testing.T{}) }}}
	if ep := os.Getenv("DYNAMODB_ENDPOINT"); ep != "" {
		stores = append(stores, struct {
			name string
			n    int
			open func() kv.Store
		}{"dynamodb", 5000, func() kv.Store {
			s, err := zdynamo.Open(context.Background(), zdynamo.Options{Table: fmt.Sprintf("knnbench_%d", os.Getpid()),
				Endpoint: ep, Region: "us-east-1", Credentials: credentials.NewStaticCredentialsProvider("test", "test", "")})
			if err != nil {
				b.Fatal(err)
			}
			return s
		}})
	}
	// The best-first search shows its batches; the square search (Pebble,
	// with statistics) its squares instead: either counts as batches.
	figures := regexp.MustCompile(`actual rows=(\d+) .*items read=(\d+) store requests=(\d+)(?: capacity=[\d.]+)? (?:batches|squares)=(\d+)`)
	for _, st := range stores {
		b.Run(st.name, func(b *testing.B) {
			store := st.open()
			defer store.Close()
			_, sess := newSession(&testing.T{}, store)
			ctx := context.Background()
			run := func(sql string) []string {
				out, err := runSQL(ctx, sess, sql)
				if err != nil {
					b.Fatalf("%s: %v", sql[:min(len(sql), 80)], err)
				}
				return out
			}
			run(`CREATE EXTENSION IF NOT EXISTS postgis`)
			run(`CREATE TABLE pois (id BIGINT PRIMARY KEY, geom geometry(Point, 4326), kind INT)`)
			rng := rand.New(rand.NewSource(1))
			var sb strings.Builder
			for i := 0; i < st.n; i++ {
				if sb.Len() == 0 {
					sb.WriteString("INSERT INTO pois VALUES ")
				} else {
					sb.WriteString(", ")
				}
				fmt.Fprintf(&sb, "(%d, ST_SetSRID(ST_MakePoint(%.9f, %.9f), 4326), %d)", i, 10+rng.Float64(), 50+rng.Float64(), rng.Intn(10))
				if i%500 == 499 || i == st.n-1 {
					run(sb.String())
					sb.Reset()
				}
			}
			run(`CREATE INDEX pois_geom ON pois USING gist (geom)`)
			run(`ANALYZE pois`)
			for _, k := range []int{1, 10, 100} {
				b.Run(fmt.Sprintf("k=%d", k), func(b *testing.B) {
					qr := rand.New(rand.NewSource(int64(k)))
					var rows, items, requests, batches float64
					for i := 0; i < b.N; i++ {
						// A tenth of the centres lie within 0.02 of an edge.
						x, y := 10+qr.Float64(), 50+qr.Float64()
						if i%10 == 0 {
							x = 10 + 0.02*qr.Float64()
						}
						q := fmt.Sprintf("EXPLAIN ANALYZE SELECT id FROM pois ORDER BY geom <-> 'SRID=4326;POINT(%.9f %.9f)'::geometry LIMIT %d", x, y, k)
						found := false
						for _, line := range run(q) {
							if m := figures.FindStringSubmatch(line); m != nil && strings.Contains(line, "z-order nearest") {
								f := func(i int) float64 { v, _ := strconv.ParseFloat(m[i], 64); return v }
								items += f(2)
								requests += f(3)
								batches += f(4)
								rows += float64(k)
								found = true
							}
						}
						if !found {
							b.Fatalf("%s: no z-order nearest scan", q)
						}
					}
					b.ReportMetric(items/rows, "items/row")
					b.ReportMetric(requests/float64(b.N), "requests/query")
					b.ReportMetric(batches/float64(b.N), "batches/query")
				})
			}
			// The same searches as the harness and applications send them:
			// one prepared statement, its centre as parameters, executed
			// from a generic plan after the first few.
			for _, k := range []int{10, 100} {
				b.Run(fmt.Sprintf("prepared/k=%d", k), func(b *testing.B) {
					qr := rand.New(rand.NewSource(int64(k)))
					params := make([]sqltypes.Value, 2)
					benchQueryGen(b, sess, fmt.Sprintf("SELECT id FROM pois ORDER BY geom <-> ST_SetSRID(ST_MakePoint($1, $2), 4326) LIMIT %d", k), func() []sqltypes.Value {
						params[0], params[1] = sqltypes.NewFloat(10+qr.Float64()), sqltypes.NewFloat(50+qr.Float64())
						return params
					})
				})
			}
		})
	}
}

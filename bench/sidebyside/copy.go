package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"hash/maphash"
	"io"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
)

// The COPY benchmark (issue 13): the same readings, as the same text-format
// bytes, loaded with COPY FROM STDIN into a fresh table on each system, the
// table carrying both indexes of the query benchmark (zproxy's btree and
// Z-order index; PostgreSQL's btree and GiST), maintained while loading.
// Then COPY TO STDOUT of the whole table, twice: the first read follows
// the load (zproxy's block cache has not held the table's blocks yet, as
// its load writes sstables past the cache; PostgreSQL reads a table this
// large through a small ring of buffers either way), the second is the
// steady state. Both systems' output must hold the same lines (the order
// may differ: PostgreSQL's is the heap's). Flag -copy-rows (0 skips it);
// -copy-only runs nothing else.

// copyResult is one system's COPY figures.
type copyResult struct {
	system   string
	rows     int64
	in, out  time.Duration
	inCPU    time.Duration // the server's for COPY FROM (writecpu.go)
	outCPU   time.Duration // the server's for COPY TO
	outBytes int64
	// again and againCPU are the second COPY TO's.
	again, againCPU time.Duration
	// lines is what the first COPY TO sent (countingWriter).
	lines lineSet
}

// copyReader produces the text-format COPY data of rows [0, n) of ds,
// as it is read, so neither side holds the whole input.
type copyReader struct {
	ds   dataset
	n, i int
	buf  []byte
}

func (r *copyReader) Read(p []byte) (int, error) {
	for len(r.buf) < len(p) && r.i < r.n {
		row := r.ds.rowAt(r.i)
		r.i++
		b := strconv.AppendInt(r.buf, row.sensorID, 10)
		b = append(b, '\t')
		b = row.ts.AppendFormat(b, "2006-01-02 15:04:05.999999")
		b = append(b, '\t')
		b = strconv.AppendFloat(b, row.celsius, 'f', -1, 64)
		b = append(b, '\t')
		b = strconv.AppendFloat(b, row.lat, 'f', -1, 64)
		b = append(b, '\t')
		b = strconv.AppendFloat(b, row.lon, 'f', -1, 64)
		b = append(b, '\t')
		if row.note == nil {
			b = append(b, '\\', 'N')
		} else {
			b = append(b, *row.note...)
		}
		r.buf = append(b, '\n')
	}
	if len(r.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.buf)
	r.buf = r.buf[:copy(r.buf, r.buf[n:])]
	return n, nil
}

// lineSet identifies a COPY's output up to the order of its lines: their
// number and the sum of their hashes.
type lineSet struct {
	n   int64
	sum uint64
}

// lineSeed is the seed of every lineSet's line hashes, so that two
// systems' sets compare.
var lineSeed = maphash.MakeSeed()

// countingWriter counts what COPY TO writes and hashes its lines.
type countingWriter struct {
	n     int64
	lines lineSet
	h     maphash.Hash // of the current line so far
	// seeded: h has lineSeed (a zero Hash would draw a seed of its own).
	seeded bool
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	if !w.seeded {
		w.h.SetSeed(lineSeed)
		w.seeded = true
	}
	for rest := p; len(rest) > 0; {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			w.h.Write(rest)
			break
		}
		w.h.Write(rest[:i])
		w.lines.n++
		w.lines.sum += w.h.Sum64()
		w.h.Reset()
		rest = rest[i+1:]
	}
	return len(p), nil
}

// copyThroughput loads cfg.copyRows rows into each system with COPY FROM
// STDIN, then reads them back with COPY TO STDOUT.
func copyThroughput(ctx context.Context, cfg config, zp *zproxyServer, pg *postgres) ([]copyResult, error) {
	ds := newDataset(cfg.seed+2, cfg.copyRows, cfg.perSensor)
	rows := ds.rows()
	var out []copyResult
	meter := writeMeter(zp, pg)
	for _, s := range []struct{ system, dsn string }{{"zproxy", zp.dsn()}, {"PostgreSQL", pg.dsn()}} {
		conn, err := pgx.Connect(ctx, s.dsn)
		if err != nil {
			return nil, err
		}
		table := "copy_readings"
		stmts := append([]string{fmt.Sprintf("CREATE TABLE %s (%s) WITH (shards = %d)", table, readingsColumns, cfg.shards)}, zproxyIndexes(table, 2)...)
		if s.system == "PostgreSQL" {
			stmts = append([]string{fmt.Sprintf("CREATE TABLE %s (%s)", table, readingsColumns)}, pgIndexes(table, 2, cfg.pgBox)...)
		}
		if err := execAll(ctx, conn, stmts...); err != nil {
			conn.Close(ctx)
			return nil, fmt.Errorf("%s: %w", s.system, err)
		}
		r := copyResult{system: s.system}
		cpu := startCPU(meter, s.system)
		start := time.Now()
		src := bufio.NewReaderSize(&copyReader{ds: ds, n: rows}, 64<<10)
		tag, err := conn.PgConn().CopyFrom(ctx, src, "COPY "+table+" FROM STDIN")
		r.in = time.Since(start)
		if err != nil {
			conn.Close(ctx)
			return nil, fmt.Errorf("%s: COPY FROM: %w", s.system, err)
		}
		r.rows = tag.RowsAffected()
		r.inCPU = cpu.stop(ctx)
		logf("copy: %s COPY FROM %d rows in %s, %.0f rows/s, CPU %s/row", s.system, r.rows, r.in.Round(time.Millisecond), float64(r.rows)/r.in.Seconds(), perRow(r.inCPU, r.rows))
		for pass := 0; pass < 2; pass++ {
			var w countingWriter
			cpu = startCPU(meter, s.system)
			start = time.Now()
			if _, err := conn.PgConn().CopyTo(ctx, &w, "COPY "+table+" TO STDOUT"); err != nil {
				conn.Close(ctx)
				return nil, fmt.Errorf("%s: COPY TO: %w", s.system, err)
			}
			took := time.Since(start)
			used := cpu.stop(ctx)
			if pass == 0 {
				r.out, r.outBytes, r.outCPU, r.lines = took, w.n, used, w.lines
			} else {
				r.again, r.againCPU = took, used
			}
			logf("copy: %s COPY TO (pass %d) %d bytes, %d lines in %s, CPU %s/row", s.system, pass+1, w.n, w.lines.n, took.Round(time.Millisecond), perRow(used, r.rows))
		}
		conn.Close(ctx)
		out = append(out, r)
	}
	return out, nil
}

// reportCopy prints the COPY figures as Markdown.
func reportCopy(w io.Writer, cfg config, results []copyResult, loadAvg string) {
	if len(results) == 0 {
		return
	}
	fmt.Fprintf(w, "\n#### COPY (text format, one connection, %d rows, both indexes maintained while loading, shards = %d)\n\n", cfg.copyRows, cfg.shards)
	fmt.Fprintln(w, "| system | COPY FROM STDIN rows/s | time | CPU/row | COPY TO STDOUT rows/s | time | CPU/row | again: rows/s | time | CPU/row |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, r := range results {
		fmt.Fprintf(w, "| %s | %.0f | %s | %s | %.0f | %s | %s | %.0f | %s | %s |\n", r.system, float64(r.rows)/r.in.Seconds(), r.in.Round(time.Millisecond),
			perRow(r.inCPU, r.rows), float64(r.rows)/r.out.Seconds(), r.out.Round(time.Millisecond), perRow(r.outCPU, r.rows),
			float64(r.rows)/r.again.Seconds(), r.again.Round(time.Millisecond), perRow(r.againCPU, r.rows))
	}
	if len(results) == 2 {
		same := "yes"
		if results[0].lines != results[1].lines {
			same = fmt.Sprintf("**no** (%d lines against %d, or their contents differ)", results[0].lines.n, results[1].lines.n)
		}
		fmt.Fprintf(w, "\nzproxy / PostgreSQL, COPY FROM rows/s: %.2f×; COPY TO: %.2f× (the first, after the load), %.2f× (again). Same lines as PostgreSQL: %s. Load average at the end: %s.\n",
			results[1].in.Seconds()/results[0].in.Seconds(), results[1].out.Seconds()/results[0].out.Seconds(),
			results[1].again.Seconds()/results[0].again.Seconds(), same, loadAvg)
	}
}

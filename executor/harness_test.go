package executor_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv/kvlog"
	zpebble "github.com/zproxy/zproxy/kv/pebble"
	"github.com/zproxy/zproxy/session"
	"github.com/zproxy/zproxy/wire"
)

// env is an in-process engine over an in-memory Pebble store wrapped in a
// request log. Partitions are named "<table or index>/<shard>"; catalog
// requests are not logged.
type env struct {
	t   *testing.T
	ctx context.Context
	eng *session.Engine
	log *kvlog.Store

	mu    sync.Mutex
	names map[string]string // partition prefix ('T'|'I' ‖ id) → name
}

func newEnv(t *testing.T, ddl ...string) *env {
	t.Helper()
	inner, err := zpebble.Open("exec", zpebble.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, ctx: context.Background(), names: map[string]string{}}
	e.log = kvlog.New(inner, kvlog.Options{
		Partition: e.partitionName,
		Ignore:    func(p []byte) bool { return string(p) == string(catalog.CatalogPartition) },
	})
	t.Cleanup(func() { e.log.Close() })
	// No automatic analysis: its reads would show in the request log, and
	// its statistics would change the plans the tests assert.
	if e.eng, err = session.New(e.ctx, session.Config{Store: e.log, AllowFullScan: true, AutoAnalyzeNap: -1}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.eng.Close() }) // its spill store

	for _, d := range ddl {
		e.mustExec(d)
	}
	e.refreshNames()
	e.log.Reset()
	return e
}

// refreshNames learns the ids of every table and index for partition names.
func (e *env) refreshNames() {
	snap, err := e.eng.Catalog().Snapshot(e.ctx)
	if err != nil {
		e.t.Fatal(err)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, tb := range snap.Tables() {
		e.names[string(tb.Partition(0)[:9])] = tb.Name
		for _, ix := range tb.Indexes {
			e.names[string(catalog.IndexPartition(ix.ID, 0)[:9])] = ix.Name
		}
	}
}

func (e *env) partitionName(p []byte) string {
	if len(p) != 11 {
		return fmt.Sprintf("%q", p)
	}
	e.mu.Lock()
	name, ok := e.names[string(p[:9])]
	e.mu.Unlock()
	if !ok {
		name = fmt.Sprintf("%c%d", p[0], binary.BigEndian.Uint64(p[1:9]))
	}
	return fmt.Sprintf("%s/%d", name, binary.BigEndian.Uint16(p[9:]))
}

func (e *env) table(name string) *catalog.Table {
	snap, err := e.eng.Catalog().Snapshot(e.ctx)
	if err != nil {
		e.t.Fatal(err)
	}
	tb, err := snap.Table(name)
	if err != nil {
		e.t.Fatal(err)
	}
	return tb
}

// query runs sql in a fresh session and returns its rows as text (NULL as
// "NULL", columns joined by "|") and the notices raised.
func (e *env) query(sql string) (rows []string, notices []string, err error) {
	sess, err := e.eng.NewSession(e.ctx, wire.SessionParams{User: "test", Notice: func(n *pgerr.Error) {
		notices = append(notices, n.Message)
	}})
	if err != nil {
		return nil, nil, err
	}
	defer sess.Close()
	stmts, err := sess.Parse(e.ctx, sql, nil)
	if err != nil {
		return nil, notices, err
	}
	for _, st := range stmts {
		res, err := st.Execute(e.ctx, nil)
		if err != nil {
			return nil, notices, err
		}
		for {
			row, ok, err := res.Next(e.ctx)
			if err != nil {
				res.Close()
				return nil, notices, err
			}
			if !ok {
				break
			}
			rows = append(rows, formatRow(row))
		}
		res.Close()
	}
	return rows, notices, nil
}

func (e *env) mustQuery(sql string) []string {
	e.t.Helper()
	rows, _, err := e.query(sql)
	if err != nil {
		e.t.Fatalf("%s: %v", sql, err)
	}
	return rows
}

func (e *env) mustExec(sql string) {
	e.t.Helper()
	if _, _, err := e.query(sql); err != nil {
		e.t.Fatalf("%s: %v", firstLine(sql), err)
	}
}

func formatRow(row []sqltypes.Value) string {
	cells := make([]string, len(row))
	for i, v := range row {
		if v.IsNull() {
			cells[i] = "NULL"
		} else {
			cells[i] = sqltypes.FormatText(v)
		}
	}
	return strings.Join(cells, "|")
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " ..."
	}
	if len(s) > 200 {
		return s[:200] + " ..."
	}
	return s
}

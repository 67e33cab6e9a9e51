package executor_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/wire"
)

// TestScanGoroutinesPerShard: a one-shard scan, and a small limit on the
// in-process store, are read on the consumer's goroutine; a many-shard
// scan without a limit runs a stream per shard. Measured as the goroutines
// alive while a result is open after its first row (the least over a few
// tries, so an unrelated background goroutine cannot fail it).
func TestScanGoroutinesPerShard(t *testing.T) {
	e := newEnv(t,
		`CREATE TABLE one (id BIGINT PRIMARY KEY, v TEXT) WITH (shards = 1)`,
		`CREATE TABLE four (id BIGINT PRIMARY KEY, v TEXT) WITH (shards = 4)`)
	for _, tb := range []string{"one", "four"} {
		var sb strings.Builder
		fmt.Fprintf(&sb, "INSERT INTO %s VALUES ", tb)
		for i := 0; i < 2000; i++ {
			if i > 0 {
				sb.WriteString(", ")
			}
			fmt.Fprintf(&sb, "(%d, 'v%d')", i, i)
		}
		e.mustExec(sb.String())
	}
	for _, c := range []struct {
		sql  string
		want func(extra int) bool
		says string
	}{
		{`SELECT v FROM one`, func(x int) bool { return x == 0 }, "none"},
		{`SELECT v FROM four LIMIT 3`, func(x int) bool { return x == 0 }, "none"},
		{`SELECT v FROM four`, func(x int) bool { return x >= 2 }, "at least 2"},
	} {
		least := -1
		for try := 0; try < 3; try++ {
			if x := e.goroutinesWhileOpen(c.sql); least < 0 || x < least {
				least = x
			}
		}
		if !c.want(least) {
			t.Errorf("%s: %d goroutines more while open, want %s", c.sql, least, c.says)
		}
	}
}

// goroutinesWhileOpen runs sql to its first row and returns how many more
// goroutines are alive then than before it started.
func (e *env) goroutinesWhileOpen(sql string) int {
	e.t.Helper()
	sess, err := e.eng.NewSession(e.ctx, wire.SessionParams{User: "test"})
	if err != nil {
		e.t.Fatal(err)
	}
	defer sess.Close()
	stmts, err := sess.Parse(e.ctx, sql, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	before := runtime.NumGoroutine()
	res, err := stmts[0].Execute(e.ctx, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Close()
	if _, ok, err := res.Next(e.ctx); err != nil || !ok {
		e.t.Fatalf("%s: first row: %v %v", sql, ok, err)
	}
	return runtime.NumGoroutine() - before
}

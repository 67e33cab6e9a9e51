package executor_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The store requests of reads through expression and partial indexes:
// the index is read, not the table. Expected keys are computed with the
// catalog's encoders.

func membersEnv(t *testing.T) *env {
	e := newEnv(t,
		`CREATE TABLE members (id INT PRIMARY KEY, email TEXT, n INT, dead BOOL)`,
		`CREATE UNIQUE INDEX members_live ON members (lower(email)) WHERE NOT dead`,
		`CREATE INDEX members_pos ON members (n) WHERE n > 0 AND NOT dead`,
		`CREATE INDEX members_len ON members (length(email))`)
	var vals []string
	for i := 0; i < 60; i++ {
		// Every third member is dead, and shares its email's lower case
		// with a live one.
		email := fmt.Sprintf("U%d@x", i)
		if i%3 == 0 {
			email = fmt.Sprintf("u%d@X", i+1)
		}
		vals = append(vals, fmt.Sprintf("(%d, '%s', %d, %v)", i, email, i-5, i%3 == 0))
	}
	e.mustExec("INSERT INTO members VALUES " + strings.Join(vals, ", "))
	e.log.Reset()
	return e
}

func TestPartialUniqueExpressionIndexPointGet(t *testing.T) {
	e := membersEnv(t)
	tb := e.table("members")
	ix := tb.Index("members_live")
	got := e.mustQuery("SELECT id, email FROM members WHERE lower(email) = 'u7@x' AND NOT dead")
	if strings.Join(got, ",") != "7|U7@x" {
		t.Fatalf("rows %v, want [7|U7@x]", got)
	}
	entry := catalog.UniqueEntryKey(ix, catalog.AppendKeyValue(nil, sqltypes.NewText("u7@x"), false))
	row := tb.RowKey([]sqltypes.Value{sqltypes.NewInt(7), sqltypes.NewText("U7@x"), sqltypes.NewInt(2), sqltypes.NewBool(false)})
	checkLines(t, "point get through the partial unique expression index", e.log.Lines(), []string{
		fmt.Sprintf("get %s %s found", e.partitionName(entry.Partition), hexOf(entry.Sort)),
		fmt.Sprintf("get %s %s found", e.partitionName(row.Partition), hexOf(row.Sort)),
	})
}

func TestPartialIndexRangeReadsOnlyItsEntries(t *testing.T) {
	e := membersEnv(t)
	got := e.mustQuery("SELECT id FROM members WHERE n > 45 AND NOT dead ORDER BY id")
	// n = id - 5 > 45: ids 51..59, of which 51, 54 and 57 are dead.
	if strings.Join(got, ",") != "52,53,55,56,58,59" {
		t.Fatalf("rows %v", got)
	}
	var scans, gets int
	for _, l := range e.log.Lines() {
		switch {
		case strings.HasPrefix(l, "scan members_pos/0 "):
			scans++
			// The partial index holds the live rows with n > 0 only: the
			// range n > 45 reads the 6 entries of ids 52..59.
			if !strings.HasSuffix(l, ": 6 items") {
				t.Errorf("index scan %q, want 6 items", l)
			}
		case strings.HasPrefix(l, "get members/0 "):
			// One batched get of the rows the entries name.
			gets += strings.Count(l, "get members/0 ")
		default:
			t.Errorf("unexpected request %q (the table must not be scanned)", l)
		}
	}
	if scans != 1 || gets != 6 || len(e.log.Lines()) != 2 {
		t.Errorf("%d index scans and %d row gets, want 1 and 6 in two requests:\n%s", scans, gets, strings.Join(e.log.Lines(), "\n"))
	}

	// A query that does not imply the predicate reads the table.
	e.log.Reset()
	e.mustQuery("SELECT id FROM members WHERE n > 45")
	for _, l := range e.log.Lines() {
		if !strings.HasPrefix(l, "scan members/0 ") {
			t.Errorf("request %q, want only the table's scan", l)
		}
	}
}

func TestExpressionIndexCoversTheColumnsItReads(t *testing.T) {
	e := membersEnv(t)
	// length(email) = 4 for U1@x .. U9@x and u2@X ...: the entries hold
	// email (the expression reads it) and id (the key), so no row is read.
	got := e.mustQuery("SELECT id, email FROM members WHERE length(email) = 4 ORDER BY id")
	if len(got) == 0 {
		t.Fatal("no rows")
	}
	for _, l := range e.log.Lines() {
		if !strings.HasPrefix(l, "scan members_len/0 ") {
			t.Errorf("request %q, want only the index's scan", l)
		}
	}
}

package executor_test

import (
	"fmt"
	"strings"
	"testing"
)

// The store requests of inverted (gin) index scans: one range read per
// token and shard, then one batched get of the rows the postings name; the
// table itself is never scanned. Pebble seeks cheaply, so the posting
// lists of an AND are read in step (a zig-zag): a list steps past the keys
// another lacks, seeking when its next match is more than zigzagSteps
// entries away.

func itemsEnv(t *testing.T) *env {
	e := newEnv(t,
		`CREATE TABLE items (id INT PRIMARY KEY, doc JSONB, tags TEXT[]) WITH (shards = 2)`,
		`CREATE INDEX items_doc ON items USING gin (doc)`,
		`CREATE INDEX items_tags ON items USING gin (tags)`)
	var vals []string
	for i := 0; i < 200; i++ {
		// color: red for every 10th row, blue otherwise; size on every 4th;
		// tag t<i mod 25> on each row, and "all" on every row.
		color := "blue"
		if i%10 == 0 {
			color = "red"
		}
		size := ""
		if i%4 == 0 {
			size = fmt.Sprintf(`, "size": %d`, i%3)
		}
		vals = append(vals, fmt.Sprintf(`(%d, '{"color": "%s"%s}', '{t%d,all}')`, i, color, size, i%25))
	}
	e.mustExec("INSERT INTO items VALUES " + strings.Join(vals, ", "))
	e.log.Reset()
	return e
}

// postings counts the items and seeks of the range reads of an index's
// partitions and the rows got from the table's, failing on any other
// request.
func postings(t *testing.T, lines []string, index string) (scans, entries, seeks, gets int) {
	t.Helper()
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "scan "+index+"/"):
			scans++
			var n int
			if _, err := fmt.Sscanf(l[strings.LastIndex(l, ": ")+2:], "%d item", &n); err != nil {
				t.Fatalf("cannot read the item count of %q", l)
			}
			entries += n
			if _, after, ok := strings.Cut(l[strings.LastIndex(l, ": ")+2:], ", "); ok {
				var k int
				if _, err := fmt.Sscanf(after, "%d seek", &k); err != nil {
					t.Fatalf("cannot read the seek count of %q", l)
				}
				seeks += k
			}
		case strings.HasPrefix(l, "get items/"):
			gets += strings.Count(l, "get items/")
		default:
			t.Errorf("unexpected request %q (the table must not be scanned)", l)
		}
	}
	return scans, entries, seeks, gets
}

func TestInvertedScanReadsOnlyPostings(t *testing.T) {
	cases := []struct {
		query, index   string
		rows           int
		scans, entries int // one scan per token and shard; entries = the tokens' postings
		seeks          int // the zig-zag's seeks past entries more than zigzagSteps away
	}{
		// key "color" (200) and value "red" (20, all in shard 1): the AND
		// keeps 20 rows, reading the 20 red entries and stepping through
		// the color entries between them (a red row is about every fifth
		// of shard 1's), seeking nowhere; shard 0's red list is empty.
		{`SELECT id FROM items WHERE doc @> '{"color": "red"}'`, "items_doc", 20, 4, 118, 0},
		// key "size" (50 rows).
		{`SELECT id FROM items WHERE doc ? 'size'`, "items_doc", 50, 2, 50, 0},
		// t3 (8 rows) and t7 (8 rows), ORed.
		{`SELECT id FROM items WHERE tags && '{t3,t7}'`, "items_tags", 16, 4, 16, 0},
		// t3 AND all: t3's 8 entries, and all's list steps zigzagSteps
		// entries towards each (t3 is on every 25th row) and then seeks to
		// it (7 seeks; the first t3 entry is within reach), not reading
		// all 208 postings.
		{`SELECT id FROM items WHERE tags @> '{t3,all}'`, "items_tags", 8, 4, 74, 7},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			e := itemsEnv(t)
			got := e.mustQuery(c.query)
			if len(got) != c.rows {
				t.Fatalf("%d rows, want %d", len(got), c.rows)
			}
			scans, entries, seeks, gets := postings(t, e.log.Lines(), c.index)
			if scans != c.scans || entries != c.entries || seeks != c.seeks || gets != c.rows {
				t.Errorf("%d scans reading %d entries with %d seeks and %d row gets, want %d, %d, %d and %d:\n%s",
					scans, entries, seeks, gets, c.scans, c.entries, c.seeks, c.rows, strings.Join(e.log.Lines(), "\n"))
			}
		})
	}
}

// TestPackedListsReadBlocks: once VACUUM has packed the lists
// (catalog/postings.go), a token's list is one scan reading its blocks
// (up to catalog.MaxBlockPostings postings each) and its packing's stamp,
// an AND reads each list
// whole and intersects them in memory (no seeks), and the rows got are the
// same. A write after the packing adds a posting or a removal, which the
// next query reads beside the blocks, and the next VACUUM folds in.
func TestPackedListsReadBlocks(t *testing.T) {
	cases := []struct {
		query, index   string
		rows           int
		scans, entries int
	}{
		// "color" (100 a shard) and "red" (20, all in shard 1): a block
		// and a stamp each, and shard 0 has no red list.
		{`SELECT id FROM items WHERE doc @> '{"color": "red"}'`, "items_doc", 20, 4, 6},
		// "size" (50 rows, every 4th, all in shard 1, as red).
		{`SELECT id FROM items WHERE doc ? 'size'`, "items_doc", 50, 2, 2},
		{`SELECT id FROM items WHERE tags && '{t3,t7}'`, "items_tags", 16, 4, 8},
		{`SELECT id FROM items WHERE tags @> '{t3,all}'`, "items_tags", 8, 4, 8},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			e := itemsEnv(t)
			e.mustExec("VACUUM items")
			e.log.Reset()
			got := e.mustQuery(c.query)
			if len(got) != c.rows {
				t.Fatalf("%d rows, want %d", len(got), c.rows)
			}
			scans, entries, seeks, gets := postings(t, e.log.Lines(), c.index)
			if scans != c.scans || entries != c.entries || seeks != 0 || gets != c.rows {
				t.Errorf("%d scans reading %d entries with %d seeks and %d row gets, want %d, %d, 0 and %d:\n%s",
					scans, entries, seeks, gets, c.scans, c.entries, c.rows, strings.Join(e.log.Lines(), "\n"))
			}
			// Again, from the lists the store keeps (kv/pebble's range
			// cache), read through the same iterators.
			for range 3 {
				if again := e.mustQuery(c.query); strings.Join(again, ",") != strings.Join(got, ",") {
					t.Fatalf("again: %v, first: %v", again, got)
				}
			}
		})
	}
	t.Run("writes after packing", func(t *testing.T) {
		e := itemsEnv(t)
		e.mustExec("VACUUM items")
		// Row 3 leaves t3 (a removal of it, an added t9 posting), row 1000
		// joins it.
		e.mustExec(`UPDATE items SET tags = '{t9,all}' WHERE id = 3`)
		e.mustExec(`INSERT INTO items VALUES (1000, '{}', '{t3}')`)
		count := func() (rows, entries int) {
			e.log.Reset()
			got := e.mustQuery(`SELECT id FROM items WHERE tags @> '{t3}'`)
			_, entries, _, _ = postings(t, e.log.Lines(), "items_tags")
			return len(got), entries
		}
		// t3's list: 8 rows less row 3 plus row 1000, over 2 shards.
		if rows, entries := count(); rows != 8 || entries != 4+2 {
			t.Errorf("before VACUUM: %d rows reading %d entries, want 8 rows and 6 entries (2 blocks, 2 stamps, a removal, an added posting)\n%s", rows, entries, strings.Join(e.log.Lines(), "\n"))
		}
		e.mustExec("VACUUM items")
		if rows, entries := count(); rows != 8 || entries != 4 {
			t.Errorf("after VACUUM: %d rows reading %d entries, want 8 rows, 2 blocks and 2 stamps\n%s", rows, entries, strings.Join(e.log.Lines(), "\n"))
		}
	})
}

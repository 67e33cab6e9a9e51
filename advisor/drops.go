package advisor

import (
	"fmt"
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// drops finds indexes no recorded read used (when the workload reads or
// writes the table) and indexes another one makes redundant: a btree whose
// key is a prefix of another btree's, in the same order, that also holds
// its INCLUDE columns, or a Z-order index with another's very attributes.
func (a *tableAdvisor) drops() []Recommendation {
	used := map[string]bool{}
	for _, r := range a.w.reads {
		for _, u := range r.uses {
			if u.Index != nil {
				used[u.Index.Name] = true
			}
		}
	}
	var out []Recommendation
	redundant := map[string]bool{}
	ixs := a.publicIndexes()
	for _, ix := range ixs {
		for _, other := range ixs {
			if other == ix || other.Kind != ix.Kind || !covered([]*catalog.Index{other}, ix) {
				continue
			}
			if len(other.Columns) == len(ix.Columns) && len(other.Include) == len(ix.Include) && other.Name < ix.Name {
				continue // identical: keep the first by name, drop the other
			}
			redundant[ix.Name] = true
			out = append(out, Recommendation{Table: a.t.Name, Kind: KindDuplicate, SQL: "DROP INDEX " + quoteIdent(ix.Name),
				WriteItems: -1, RowsWritten: a.w.rowsWritten,
				Reason: fmt.Sprintf("index %s serves every read %s serves", other.Name, ix.Name)})
			break
		}
	}
	for _, ix := range ixs {
		if used[ix.Name] || redundant[ix.Name] {
			continue
		}
		out = append(out, Recommendation{Table: a.t.Name, Kind: KindUnused, SQL: "DROP INDEX " + quoteIdent(ix.Name),
			WriteItems: -1, RowsWritten: a.w.rowsWritten,
			Reason: fmt.Sprintf("no recorded statement read %s; each row written to %s writes an entry to it", ix.Name, a.t.Name)})
	}
	return out
}

// shards advises spreading writes that concentrate on one end of a key: a
// table (or btree index) of one shard whose key leads with a column that
// grows with time (an identity or sequence column, or a time stamped by
// its default), written by the workload. Inserts then all land on the last
// key range of one partition; hashing the key over shards spreads them.
func (a *tableAdvisor) shards() []Recommendation {
	if a.w.rowsWritten == 0 {
		return nil
	}
	const suggested = 8
	var out []Recommendation
	if a.t.Shards <= 1 && len(a.t.PrimaryKey) > 0 && monotonic(a.t.Columns[a.t.PrimaryKey[0].Column]) {
		col := a.t.Columns[a.t.PrimaryKey[0].Column].Name
		out = append(out, Recommendation{Table: a.t.Name, Kind: KindShards,
			SQL:         fmt.Sprintf("CREATE TABLE %s (...) WITH (shards = %d)", quoteIdent(a.t.Name), suggested),
			RowsWritten: a.w.rowsWritten,
			Reason: fmt.Sprintf("the primary key leads with %s, which grows with every insert: all %d rows written went to one end of one shard; "+
				"shards hash the key so writes spread (or lead the key with a bit-reversed sequence)", col, a.w.rowsWritten)})
	}
	for _, ix := range a.publicIndexes() {
		if ix.Kind != catalog.KindBTree || ix.Shards > 1 || !monotonic(a.t.Columns[ix.Columns[0].Column]) {
			continue
		}
		sharded := *ix
		sharded.Shards = suggested
		stmt := CreateIndexSQL(a.t, &sharded)
		if !strings.Contains(stmt, "WITH (shards") {
			stmt += fmt.Sprintf(" WITH (shards = %d)", suggested)
		}
		out = append(out, Recommendation{Table: a.t.Name, Kind: KindShards, SQL: stmt, RowsWritten: a.w.rowsWritten,
			Reason: fmt.Sprintf("index %s leads with %s, which grows with every insert: its entries all go to one end; rebuild it sharded",
				ix.Name, a.t.Columns[ix.Columns[0].Column].Name)})
	}
	return out
}

// monotonic reports whether a column's values grow with time as rows are
// inserted: identity and sequence-fed columns, and times defaulting to
// the current time.
func monotonic(c catalog.Column) bool {
	if c.Identity != "" || c.Sequence != "" {
		return true
	}
	switch c.Type.Kind() {
	case sqltypes.KindTimestamp, sqltypes.KindTimestampTZ, sqltypes.KindDate:
		d := strings.ToLower(c.Default)
		return strings.Contains(d, "now()") || strings.Contains(d, "current_timestamp") || strings.Contains(d, "current_date")
	}
	return false
}

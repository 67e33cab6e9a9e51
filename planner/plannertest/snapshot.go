package plannertest

import (
	"fmt"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
	"github.com/zproxy/zproxy/planner"
)

// Catalog is an in-memory schema that DDL text is applied to.
type Catalog struct {
	snap    *catalog.Snapshot
	version uint64
}

// New returns an empty catalog.
func New() *Catalog { return &Catalog{snap: &catalog.Snapshot{}, version: 1} }

// Snapshot is the schema as it stands.
func (c *Catalog) Snapshot() *catalog.Snapshot { return c.snap }

// Exec binds each statement of sql (CREATE TABLE and CREATE INDEX) and
// applies it: object IDs come from a version counted per statement, and a
// new index is public at once, there being no rows to build it from.
func (c *Catalog) Exec(sql string) error {
	stmts, err := parser.Parse(sql)
	if err != nil {
		return err
	}
	for i := range stmts {
		bound, _, err := planner.Bind(c.snap, &stmts[i], nil)
		if err != nil {
			return err
		}
		v := c.version
		c.version++
		switch st := bound.(type) {
		case *ir.CreateTable:
			tb := st.Table.Clone()
			tb.ID = catalog.ObjectID(v, 0)
			for j, ix := range tb.Indexes {
				ix.ID = catalog.ObjectID(v, j+1)
			}
			c.snap = c.snap.WithTables(tb)
		case *ir.CreateIndex:
			tb, err := c.snap.Table(st.Table)
			if err != nil {
				return err
			}
			tb = tb.Clone()
			ix := *st.Index
			ix.ID = catalog.ObjectID(v, 0)
			ix.State = catalog.StatePublic
			tb.Indexes = append(tb.Indexes, &ix)
			c.snap = c.snap.WithTables(tb)
		default:
			return fmt.Errorf("plannertest: %T is not DDL this catalog applies", bound)
		}
	}
	return nil
}

// Bind parses and binds one statement against the catalog.
func (c *Catalog) Bind(sql string) (ir.Statement, error) {
	stmts, err := parser.Parse(sql)
	if err != nil {
		return nil, err
	}
	if len(stmts) != 1 {
		return nil, fmt.Errorf("plannertest: %d statements, want one", len(stmts))
	}
	bound, _, err := planner.Bind(c.snap, &stmts[0], nil)
	return bound, err
}

package planner

import (
	"fmt"
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// CREATE TABLE t (..., LIKE source [INCLUDING | EXCLUDING option ...], ...)
// copies source's columns (names, types, NOT NULL) to where the clause
// stands, and with its options their defaults (DEFAULTS), identity
// (IDENTITY, a new sequence of the same options), CHECK constraints
// (CONSTRAINTS), primary key, unique constraints and indexes (INDEXES,
// named for the new table as PostgreSQL names them) and column comments
// (COMMENTS). STATISTICS, STORAGE, COMPRESSION and GENERATED have nothing
// to copy in zproxy (no per-column storage settings, no generated
// columns). Foreign keys are never copied, as in PostgreSQL.

// likeSource is one LIKE clause resolved.
type likeSource struct {
	src       *catalog.Table
	cols      []string // its visible columns, in order
	types     map[string]bool
	including map[string]bool
	before    int
	inherit   bool // an INHERITS parent (parser.LikeClause.Inherit)
	partition bool // a PARTITION OF parent (parser.LikeClause.Partition)
}

// likeSources resolves the statement's LIKE clauses: each names a table
// (or a view, whose columns it copies).
func (b *Binder) likeSources() ([]likeSource, error) {
	var out []likeSource
	for _, l := range b.stmt.Like {
		snap, tempOnly := b.snapFor(l.Schema)
		key := l.Table
		if l.Schema != "" && l.Schema != "public" && !tempOnly {
			// A user schema's relation (PARTITION OF s.p, INHERITS (s.p),
			// LIKE s.t) is keyed "schema.name" (catalog/schemas.go).
			if !b.snap.HasSchema(l.Schema) {
				return nil, errNoSchema(l.Schema, l.Position)
			}
			key = catalog.QualifiedKey(l.Schema, l.Table)
		}
		ls := likeSource{including: l.Including, before: l.Before, inherit: l.Inherit, partition: l.Partition}
		if t, err := snap.Table(key); err == nil && (!tempOnly || t.Temp) {
			ls.src = t
		} else if v, ok := snap.StoredView(key); ok && !tempOnly {
			// A view lends its columns only.
			ls.src = &catalog.Table{Name: v.Name}
			for i, c := range v.Columns {
				ls.src.Columns = append(ls.src.Columns, catalog.Column{Name: c, Type: v.Types[i]})
			}
		} else {
			return nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", l.Table).WithPosition(l.Position)
		}
		for _, c := range ls.src.Columns {
			if !c.Hidden {
				ls.cols = append(ls.cols, c.Name)
			}
		}
		out = append(out, ls)
	}
	return out, nil
}

// likeColumns appends to t the columns of the LIKE clauses that stand
// before column definition ci.
func (b *Binder) likeColumns(t *catalog.Table, likes []likeSource, ci int) error {
	for _, l := range likes {
		if l.before != ci {
			continue
		}
		for _, name := range l.cols {
			sc := l.src.Columns[l.src.ColumnIndex(name)]
			c := catalog.Column{Name: name, Type: sc.Type, NotNull: sc.NotNull || l.src.IsPKColumn(l.src.ColumnIndex(name))}
			if i := t.ColumnIndex(name); i >= 0 {
				if !l.inherit {
					return pgerr.New(pgerr.DuplicateColumn, "column %q specified more than once", name)
				}
				if err := b.inheritedColumn(t, i, c, false); err != nil {
					return err
				}
			}
			if l.including["comments"] {
				c.Comment = sc.Comment
			}
			// Defaults and identity go through the column's extras, as if
			// written, so columnGenerators binds and checks them.
			ext := &parser.ColumnExtras{}
			switch {
			case sc.Identity != "" && l.including["identity"]:
				q, ok := b.snap.Sequence(sc.Sequence)
				if !ok {
					return pgerr.New(pgerr.UndefinedObject, "sequence %q of column %q does not exist", sc.Sequence, name)
				}
				ext.Identity = &parser.Identity{Always: sc.Identity == "always", Options: sequenceOptions(q)}
			case sc.Default != "" && sc.Identity == "" && l.including["defaults"]:
				ext.Default = sc.Default
			}
			if own := b.stmt.Columns[name]; (l.inherit || l.partition) && own != nil {
				// The table's own definition of the column (or an earlier
				// parent's) has the default, if it has one.
				if own.Default == "" && own.Identity == nil {
					own.Default = ext.Default
				}
			} else if ext.Identity != nil || ext.Default != "" {
				if b.stmt.Columns == nil {
					b.stmt.Columns = map[string]*parser.ColumnExtras{}
				}
				b.stmt.Columns[name] = ext
			}
			if t.ColumnIndex(name) >= 0 {
				continue // merged
			}
			t.Columns = append(t.Columns, c)
		}
	}
	return nil
}

// sequenceOptions spells a sequence's options as an identity column's
// parenthesized list.
func sequenceOptions(q *catalog.Sequence) string {
	s := fmt.Sprintf("INCREMENT BY %d MINVALUE %d MAXVALUE %d START WITH %d CACHE %d", q.Increment, q.Min, q.Max, q.Start, q.Cache)
	if q.Cycle {
		s += " CYCLE"
	}
	return s
}

// likeConstraints copies the LIKE clauses' CHECK constraints (keeping
// their names) and indexes (the primary key is copied with the columns,
// in bindCreateTable).
func (b *Binder) likeConstraints(t *catalog.Table, likes []likeSource) error {
	for _, l := range likes {
		if l.including["constraints"] {
			for _, ch := range l.src.Checks {
				if t.HasConstraint(ch.Name) {
					if l.partition {
						if err := b.mergePartitionCheck(l.src, ch, t); err != nil {
							return err
						}
					}
					continue // PostgreSQL merges a same-named check
				}
				t.Checks = append(t.Checks, catalog.Check{Name: ch.Name, SQL: ch.SQL})
			}
		}
		if !l.including["indexes"] {
			continue
		}
		for _, ix := range l.src.Indexes {
			if ix.Auto || ix.State != catalog.StatePublic {
				continue
			}
			nix, err := b.copyIndex(l.src, t, ix)
			if err != nil {
				return err
			}
			if l.including["comments"] {
				nix.Comment = ix.Comment
			}
			t.Indexes = append(t.Indexes, nix)
		}
	}
	return nil
}

// copyIndex makes, for table t, the index ix of table src: its columns
// found in t by name, named for t as PostgreSQL names the indexes LIKE
// ... INCLUDING INDEXES and partitions get.
func (b *Binder) copyIndex(src, t *catalog.Table, ix *catalog.Index) (*catalog.Index, error) {
	nix := &catalog.Index{Kind: ix.Kind, Shards: t.Shards, State: catalog.StatePublic, Unique: ix.Unique,
		NullsNotDistinct: ix.NullsNotDistinct, Constraint: ix.Constraint, Bounds: ix.Bounds, Predicate: ix.Predicate}
	bound, err := ir.BindIndex(src, ix)
	if err != nil {
		return nil, err
	}
	names := []string{t.Name}
	for i, k := range ix.Columns {
		if k.Column < 0 { // an expression reads columns by name
			nix.Columns = append(nix.Columns, k)
			names = append(names, ir.IndexExprName(bound.Keys[i]))
			continue
		}
		name := src.Columns[k.Column].Name
		k.Column = t.ColumnIndex(name)
		nix.Columns = append(nix.Columns, k)
		names = append(names, name)
	}
	for _, c := range ix.ExprColumns {
		nix.ExprColumns = append(nix.ExprColumns, t.ColumnIndex(src.Columns[c].Name))
	}
	for _, i := range ix.Include {
		nix.Include = append(nix.Include, t.ColumnIndex(src.Columns[i].Name))
	}
	suffix := "idx"
	if ix.Constraint {
		suffix = "key"
	}
	if ix.Gist != nil {
		g := *ix.Gist
		g.Column = t.ColumnIndex(src.Columns[g.Column].Name)
		nix.Gist = &g
		// Named, as PostgreSQL names it, by the column it was declared
		// on, not by the keys zproxy computes from it.
		names = []string{t.Name, src.Columns[ix.Gist.Column].Name}
	}
	if ix.Exclusion != nil {
		x := *ix.Exclusion
		x.Elements = append([]catalog.ExclusionElement(nil), x.Elements...)
		for i, el := range x.Elements {
			if el.Column >= 0 {
				x.Elements[i].Column = t.ColumnIndex(src.Columns[el.Column].Name)
			}
		}
		nix.Exclusion, suffix = &x, "excl"
		nix.Shards, nix.ShardColumns = ix.Shards, ix.ShardColumns
	}
	if ix.Deferrable {
		// A deferrable constraint keeps its deferral, and its entries'
		// placement by value (constraints.go, uniqueIndex).
		nix.Deferrable, nix.InitiallyDeferred = true, ix.InitiallyDeferred
		nix.ShardColumns = ix.ShardColumns
	}
	if ix.Covering {
		t.CoverRows(nix) // t's columns, which may be more than src's
	}
	nix.Name = chooseName(strings.Join(names, "_"), suffix, b.nameTaken(t, true))
	return nix, nil
}

package catalog

import "github.com/zproxy/zproxy/zorder"

// GistKey marks a Z-order index as the GiST index CREATE INDEX ... USING
// gist made over one column of a planar point type (a point, a geometry of
// points) or of a range type, or a btree index as the one made over a
// geometry column of any shape (XZ). zproxy has no R-tree: such a Z-order
// index's two key expressions are the column's x and y (a range's lower and
// upper bound, planner/gist.go), aligned to the data, so the Z-order
// machinery keeps it exact on every write and serves boxes, and the
// optimizer answers ORDER BY column <-> constant LIMIT k from a point's by a
// nearest-neighbour search (optimizer/nearest.go). The catalogs show the
// index as PostgreSQL would: gist over the column with its operator class.
type GistKey struct {
	// Column is the indexed column's ordinal in Table.Columns.
	Column int `json:"column"`
	// Opclass is the operator class the catalogs name (point_ops,
	// gist_geometry_ops_2d, range_ops).
	Opclass string `json:"opclass"`
	// XZ, on a gist index over geometries of any shape, says it is a
	// btree index over one key expression, the XZ2 code of each row's
	// bounding box (builtins.XZ2Func) in this world: a query box becomes
	// the code ranges of the cells whose enlarged elements meet it
	// (optimizer/gistbounds.go).
	XZ *zorder.XZ2 `json:"xz,omitempty"`
	// Geography, on a Z-order gist index over a geography(Point) column,
	// says its keys are longitude and latitude in degrees: distances in
	// metres bound them through a covering box on the sphere
	// (optimizer/gistbounds.go), and <-> is no planar distance.
	Geography bool `json:"geography,omitempty"`
}

// LtreeGistOpclass is the ltree extension's gist operator class. A gist
// index of it is an ordered (btree) index over the ltree column itself
// (planner/gist.go: bindLtreeGist), not a Z-order one.
const LtreeGistOpclass = "gist_ltree_ops"

// Ordered reports whether the gist index is an ordered index over its
// column (an ltree's), which the spatial machinery leaves alone.
func (g *GistKey) Ordered() bool { return g.Opclass == LtreeGistOpclass }

// DeclaredColumns are the key columns as CREATE INDEX declared them, which
// the catalogs show (pg_index, pg_get_indexdef): a gist index's one column
// (its operator class the default, so unsaid), every other index's
// Columns.
func (ix *Index) DeclaredColumns() []KeyColumn {
	if ix.Gist != nil {
		return []KeyColumn{{Column: ix.Gist.Column}}
	}
	if ix.Exclusion != nil {
		out := make([]KeyColumn, len(ix.Exclusion.Elements))
		for i, e := range ix.Exclusion.Elements {
			out[i] = ix.Columns[e.Key]
		}
		return out
	}
	return ix.Columns
}

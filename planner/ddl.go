package planner

import (
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/guc"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// Limits on table and index definitions.
const (
	MaxShards          = 1024
	MaxZOrderColumns   = 8
	defaultTableShards = catalog.DefaultShards
	// rowIDShards is the shard count of a table without a primary key.
	rowIDShards = catalog.RowIDShards
)

// RowIDColumn names the hidden row id of a table without a primary key.
const RowIDColumn = catalog.RowIDColumn

func (b *Binder) bindCreateTable(n *ast.CreateTableStmt) (ir.Statement, error) {
	if n.ReferTable != nil {
		// MySQL's CREATE TABLE t LIKE s; PostgreSQL's LIKE goes inside the
		// parentheses.
		return nil, pgerr.New(pgerr.SyntaxError, `syntax error at or near "LIKE"`)
	}
	if n.Select != nil {
		// MySQL's CREATE TABLE t SELECT ... (PostgreSQL's CREATE TABLE t
		// AS ... is parsed as its query: createas.go).
		return nil, pgerr.New(pgerr.SyntaxError, "syntax error at or near \"select\"")
	}
	t, err := b.newTable(n.Table.Schema.O, n.Table.Name.O)
	if err != nil {
		return nil, err
	}
	temp := t.Temp
	cb := &constraintBuilder{b: b, t: t}
	var pk []*ast.IndexPartSpecification
	pkCount := 0
	// pkName is the primary key's CONSTRAINT name, if it has one.
	pkName := ""
	parent, err := b.partitionParent()
	if err != nil {
		return nil, err
	}
	parents, err := b.inheritParents(n)
	if err != nil {
		return nil, err
	}
	likes, err := b.likeSources()
	if err != nil {
		return nil, err
	}
	for ci, cd := range n.Cols {
		if err := b.likeColumns(t, likes, ci); err != nil {
			return nil, err
		}
		name := cd.Name.Name.O
		if b.stmt.LikeOnly && name == parser.LikePlaceholder {
			continue
		}
		merge := -1 // the inherited column this definition merges with
		var col catalog.Column
		if parent != nil {
			// A partition's column: the parent's, with options of its own.
			if merge, err = b.partitionColumn(t, name, n.Cols[:ci]); err != nil {
				return nil, err
			}
			col = t.Columns[merge]
		} else {
			if i := t.ColumnIndex(name); i >= 0 && len(parents) > 0 {
				merge = i
			} else if err := checkNewColumn(t, name); err != nil {
				return nil, err
			}
			typ, err := parser.ColumnType(cd.Tp)
			if err != nil {
				return nil, err
			}
			if ext := b.stmt.Columns[name]; ext != nil && ext.TypeName != "" {
				if typ, err = columnExtrasType(b.snap, ext); err != nil {
					return nil, err
				}
			}
			col = catalog.Column{Name: name, Type: typ}
		}
		for _, opt := range cd.Options {
			switch opt.Tp {
			case ast.ColumnOptionNotNull:
				col.NotNull = true
			case ast.ColumnOptionNull:
			case ast.ColumnOptionPrimaryKey:
				pkCount++
				pk = []*ast.IndexPartSpecification{{Column: cd.Name}}
				if cs := b.stmt.Constraints; cs != nil {
					pkName = cs.ColumnNames[name]["primary"]
				}
				col.NotNull = true
				if deferrablePrimaryKey(b.stmt.Constraints, name, cd.Options) {
					return nil, unsupported("DEFERRABLE primary keys are not supported")
				}
			case ast.ColumnOptionUniqKey, ast.ColumnOptionReference, ast.ColumnOptionCheck:
				cb.column(name, opt)
			default:
				return nil, unsupported("column constraint on %q is not supported", name)
			}
		}
		if parent != nil {
			t.Columns[merge] = col
			continue
		}
		if merge >= 0 {
			if err := b.inheritedColumn(t, merge, col, true); err != nil {
				return nil, err
			}
			continue
		}
		t.Columns = append(t.Columns, col)
	}
	if err := b.likeColumns(t, likes, len(n.Cols)); err != nil {
		return nil, err
	}
	for i, c := range n.Constraints {
		switch c.Tp {
		case ast.ConstraintPrimaryKey:
			pkCount++
			pk, pkName = c.Keys, c.Name
			if cs := b.stmt.Constraints; cs != nil && cs.TableDeferral[i] != "" {
				return nil, unsupported("DEFERRABLE primary keys are not supported")
			}
		default:
			if err := cb.tableConstraint(i, c); err != nil {
				return nil, err
			}
		}
	}
	for _, l := range likes {
		if !l.including["indexes"] || l.src.RowIDKeyed() {
			continue
		}
		// LIKE ... INCLUDING INDEXES copies the primary key.
		pkCount++
		pk, pkName = nil, ""
		for _, k := range l.src.PrimaryKey {
			pk = append(pk, &ast.IndexPartSpecification{Column: &ast.ColumnName{Name: ast.NewCIStr(l.src.Columns[k.Column].Name)}, Desc: k.Desc})
		}
	}
	if pkCount > 1 {
		return nil, pgerr.New(pgerr.InvalidTableDefinition, "multiple primary keys for table %q are not allowed", t.Name)
	}
	if parent != nil && len(pk) > 0 && parent.RowIDKeyed() {
		// zproxy's own: a row's key is its store key, and a row of the
		// root is a row of every member (as ATTACH PARTITION requires).
		return nil, pgerr.New(pgerr.FeatureNotSupported, "a primary key on partition %q that partitioned table %q lacks is not supported", t.BareName(), parent.BareName()).
			WithHint("Give the partitioned table the primary key.")
	}
	if len(pk) == 0 {
		b.addRowID(t)
	} else if pkName != "" && pkName != t.BareName()+"_pkey" && parent == nil {
		// The key's constraint and index take the name (a relation's).
		sc, _ := catalog.SplitName(t.Name)
		if q := catalog.QualifiedKey(sc, pkName); b.snap.HasRelation(q) || b.snap.TableByKeyName(q) != nil {
			return nil, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", pkName)
		} else if _, ix := b.snap.FindIndex(q); ix != nil {
			return nil, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", pkName)
		}
		t.PKeyName = pkName
	}
	for _, part := range pk {
		if part.Column == nil {
			return nil, unsupported("expressions in PRIMARY KEY are not supported")
		}
		i := t.ColumnIndex(part.Column.Name.O)
		if i < 0 {
			return nil, pgerr.New(pgerr.UndefinedColumn, "column %q named in key does not exist", part.Column.Name.O)
		}
		for _, k := range t.PrimaryKey {
			if k.Column == i {
				return nil, pgerr.New(pgerr.DuplicateColumn, "column %q appears twice in primary key constraint", part.Column.Name.O)
			}
		}
		if err := catalog.CheckKeyEncodable(t.Columns[i].Type); err != nil {
			return nil, err
		}
		t.Columns[i].NotNull = true
		t.PrimaryKey = append(t.PrimaryKey, catalog.KeyColumn{Column: i, Desc: part.Desc})
	}
	if err := b.tableOptions(t); err != nil {
		return nil, err
	}
	seqs, err := b.columnGenerators(t)
	if err != nil {
		return nil, err
	}
	for _, q := range seqs {
		q.Temp = temp
	}
	if err := cb.finish(); err != nil {
		return nil, err
	}
	if err := b.likeConstraints(t, likes); err != nil {
		return nil, err
	}
	if n.IfNotExists && parent != nil && b.snap.HasRelation(t.Name) {
		// The statement creates nothing (the executor's NOTICE), so its
		// bound is not checked against the partition of its name.
		parent = nil
	}
	if err := b.bindPartitioning(t, parent); err != nil {
		return nil, err
	}
	for _, p := range parents {
		t.Parents = append(t.Parents, p.ID)
	}
	return &ir.CreateTable{Table: t, IfNotExists: n.IfNotExists, Sequences: seqs, Notices: b.createNotices}, nil
}

// newTable starts the descriptor of a table CREATE TABLE creates: a
// temporary one for CREATE TEMP TABLE or a name in pg_temp (a temporary
// table in another schema is refused, as PostgreSQL refuses it), with its
// ON COMMIT action.
func (b *Binder) newTable(schema, name string) (*catalog.Table, error) {
	temp := b.stmt.Temp
	switch {
	case isTempSchema(strings.ToLower(schema)):
		temp = true // CREATE TABLE pg_temp.t makes a temporary table
	case temp && schema != "":
		return nil, pgerr.New(pgerr.InvalidTableDefinition, "cannot create temporary relation in non-temporary schema")
	case temp:
		// Unqualified: pg_temp's, keyed by its bare name, whatever schema
		// the search path would create a permanent relation in.
	default:
		// A relation of a user schema is keyed "schema.name"; an
		// unqualified one goes to the search path's first schema
		// (catalog/schemas.go).
		switch {
		case schema != "" && schema != catalog.PublicSchema && b.snap.HasSchema(schema):
			name, schema = catalog.QualifiedKey(schema, name), ""
		case schema == "" && !strings.Contains(name, "."):
			key, err := b.snap.CreationKey(name)
			if err != nil {
				return nil, err
			}
			name = key
		}
		if err := creationSchema(schema, name); err != nil {
			return nil, err
		}
	}
	t := &catalog.Table{Name: name, Shards: defaultTableShards, Mutability: catalog.Mutable, Temp: temp}
	if temp && b.stmt.OnCommit != "preserve rows" {
		t.OnCommit = b.stmt.OnCommit
	}
	return t, nil
}

// checkNewColumn refuses a column of a new table t named name: a name
// zproxy reserves, or one t has already.
func checkNewColumn(t *catalog.Table, name string) error {
	if strings.HasPrefix(name, catalog.ReservedPrefix) || strings.HasPrefix(name, "~") {
		return pgerr.New(pgerr.ReservedName, "column name %q is reserved: names starting with %q or \"~\" belong to zproxy", name, catalog.ReservedPrefix)
	}
	if t.ColumnIndex(name) >= 0 {
		return pgerr.New(pgerr.DuplicateColumn, "column %q specified more than once", name)
	}
	return nil
}

// addRowID keys a table declared without a primary key (pandas' to_sql,
// pgbench -i, most tutorials, CREATE TABLE ... AS) by a hidden row id,
// random so inserts spread over the key space, and shards it so they
// spread over store partitions too (unless WITH (shards) says otherwise).
func (b *Binder) addRowID(t *catalog.Table) {
	name := RowIDColumn
	for i := 1; t.ColumnIndex(name) >= 0; i++ {
		name = RowIDColumn + "_" + itoa(i)
	}
	t.Columns = append(t.Columns, catalog.Column{Name: name, Type: sqltypes.TypeInt8, NotNull: true, Hidden: true})
	t.PrimaryKey = []catalog.KeyColumn{{Column: len(t.Columns) - 1}}
	if b.stmt.With["shards"] == "" {
		t.Shards = rowIDShards
		if t.Temp {
			t.Shards = 1 // read back in insertion order (nextTempRowID)
		}
	}
}

// tableOptions applies CREATE TABLE's WITH (...) options to t, whose
// columns and primary key are complete: shards, mutability, shard
// columns, TTL (fillfactor is checked and changes nothing).
func (b *Binder) tableOptions(t *catalog.Table) error {
	for key, val := range b.stmt.With {
		switch key {
		case "shards":
			n, err := parseShards(val)
			if err != nil {
				return err
			}
			t.Shards = n
		case "mutability":
			switch strings.ToLower(val) {
			case catalog.Mutable, catalog.ImmutableRows:
				t.Mutability = strings.ToLower(val)
			default:
				return pgerr.New(pgerr.InvalidParameterValue, "invalid value for mutability: %q", val).
					WithHint("Use 'mutable' or 'immutable_rows'.")
			}
		case "ttl", "ttl_column", "shard_columns":
		case "fillfactor":
			// PostgreSQL's page fill target (pgbench -i sets it). zproxy's
			// stores have no pages to leave room in, so nothing differs;
			// the value is still checked as PostgreSQL checks it.
			if n, err := strconv.Atoi(val); err != nil || n < 10 || n > 100 {
				return pgerr.New(pgerr.InvalidParameterValue, "value %s out of bounds for option \"fillfactor\"", val).
					WithDetail("Valid values are between \"10\" and \"100\".")
			}
		default:
			return pgerr.New(pgerr.InvalidParameterValue, "unrecognized parameter %q", key)
		}
	}
	var err error
	if t.ShardColumns, err = shardColumns(t, t.PrimaryKey, "primary key", b.stmt.With, t.Shards); err != nil {
		return err
	}
	if ttl, ok := b.stmt.With["ttl"]; ok {
		if t.TTL, err = catalog.NewTTL(t, ttl, b.stmt.With["ttl_column"]); err != nil {
			return err
		}
	} else if _, ok := b.stmt.With["ttl_column"]; ok {
		return pgerr.New(pgerr.InvalidParameterValue, "\"ttl_column\" needs \"ttl\"")
	}
	return nil
}

func parseShards(val string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(val))
	if err != nil || n < 1 || n > MaxShards {
		return 0, pgerr.New(pgerr.InvalidParameterValue, "shards must be an integer between 1 and %d, not %q", MaxShards, val)
	}
	return n, nil
}

func (b *Binder) bindCreateIndex(n *ast.CreateIndexStmt) (ir.Statement, error) {
	if n.KeyType != ast.IndexKeyTypeNone && n.KeyType != ast.IndexKeyTypeUnique {
		return nil, unsupported("this index type is not supported")
	}
	t, err := b.snap.Table(tableKey(n.Table))
	if err != nil {
		return nil, err
	}
	kind, gist := catalog.KindBTree, false
	switch strings.ToLower(b.stmt.IndexMethod) {
	case "", "btree":
	case "zorder":
		kind = catalog.KindZOrder
	case "gin":
		kind = catalog.KindGIN
	case "gist":
		// A Z-order index over the column's x and y (gist.go).
		kind, gist = catalog.KindZOrder, true
	default:
		return nil, pgerr.New(pgerr.UndefinedObject, "access method %q does not exist", b.stmt.IndexMethod)
	}
	name := n.IndexName
	if b.stmt.IndexUnnamed {
		// PostgreSQL's ChooseIndexName: table_col1_col2_idx, numbered
		// when taken.
		name = "" // once the keys are bound
	}
	ix := &catalog.Index{Name: name, Kind: kind, Shards: t.Shards, State: catalog.StateBuilding, Bounds: kind == catalog.KindZOrder}
	seen := map[int]bool{}
	// keyNames are the names PostgreSQL's ChooseIndexColumnNames gives the
	// keys in an index's generated name.
	var keyNames []string
	for _, part := range n.IndexPartSpecifications {
		if part.Column == nil {
			return nil, unsupported("expression indexes are not supported")
		}
		if gist {
			if err := checkGistPart(part); err != nil {
				return nil, err
			}
		}
		if x := indexExprOrdinal(part.Column.Name.O); x >= 0 {
			kc := catalog.KeyColumn{Desc: part.Desc}
			e, err := b.bindIndexKeyExpr(t, ix, x, &kc)
			if err != nil {
				return nil, err
			}
			if kind == catalog.KindZOrder && part.Desc {
				return nil, unsupported("DESC is meaningless in a Z-order index")
			}
			ix.Columns = append(ix.Columns, kc)
			keyNames = append(keyNames, ir.IndexExprName(e))
			continue
		}
		keyNames = append(keyNames, part.Column.Name.O)
		i := t.ColumnIndex(part.Column.Name.O)
		if i < 0 {
			return nil, pgerr.New(pgerr.UndefinedColumn, "column %q does not exist", part.Column.Name.O)
		}
		if seen[i] {
			return nil, pgerr.New(pgerr.DuplicateColumn, "column %q appears twice in index", part.Column.Name.O)
		}
		seen[i] = true
		if kind != catalog.KindGIN && !gist { // a gin key is tokenized by its operator class, a gist one is a point's or range's coordinates
			if err := catalog.CheckKeyEncodable(t.Columns[i].Type); err != nil {
				return nil, err
			}
		}
		if typ := t.Columns[i].Type; kind == catalog.KindZOrder && !gist && (typ.IsRange() || typ.IsMultirange()) { // a gist index's range is its two bounds (gist.go)
			if err := catalog.CheckKeyType(typ, kind); err != nil {
				return nil, err
			}
		}
		kc := catalog.KeyColumn{Column: i, Desc: part.Desc}
		if part.Length > 0 {
			if kind != catalog.KindZOrder {
				return nil, unsupported("column widths are only supported in Z-order indexes")
			}
			kc.Width = part.Length
		}
		if kind == catalog.KindZOrder && part.Desc {
			return nil, unsupported("DESC is meaningless in a Z-order index")
		}
		ix.Columns = append(ix.Columns, kc)
	}
	if name == "" {
		// PostgreSQL's ChooseIndexName: table_key1_key2_idx, numbered
		// when taken.
		name = chooseName(strings.Join(append([]string{t.BareName()}, uniqueKeyNames(keyNames)...), "_"), "idx", b.nameTaken(t, true))
		ix.Name = name
	}
	if err := b.bindIndexPredicate(t, ix); err != nil {
		return nil, err
	}
	if gist {
		if err := b.bindGistKey(t, ix, n.KeyType == ast.IndexKeyTypeUnique); err != nil {
			return nil, err
		}
	}
	if kind == catalog.KindGIN {
		if err := b.bindInvertedKeys(t, ix, n); err != nil {
			return nil, err
		}
	}
	if kind == catalog.KindZOrder && len(ix.Columns) > MaxZOrderColumns {
		return nil, pgerr.New(pgerr.TooManyColumns, "cannot use more than %d columns in a Z-order index", MaxZOrderColumns)
	}
	for _, name := range b.stmt.Include {
		i := t.ColumnIndex(name)
		if i < 0 {
			return nil, pgerr.New(pgerr.UndefinedColumn, "column %q does not exist", name)
		}
		if !seen[i] && !t.IsPKColumn(i) {
			ix.Include = append(ix.Include, i)
			seen[i] = true
		}
	}
	align := gist && ix.Kind == catalog.KindZOrder // a gist index is laid out over its data, as its R-tree would be
	covering := ix.CoversByDefault()
	for key, val := range b.stmt.With {
		switch key {
		case "covering":
			if covering, err = parseCovering(ix, val); err != nil {
				return nil, err
			}
		case "shards":
			if ix.Shards, err = parseShards(val); err != nil {
				return nil, err
			}
		case "shard_columns", "leads":
		case "align":
			if align, err = parseAlign(ix, val); err != nil {
				return nil, err
			}
		default:
			return nil, pgerr.New(pgerr.InvalidParameterValue, "unrecognized parameter %q", key)
		}
	}
	if covering {
		t.CoverRows(ix)
	}
	if err := indexShardColumns(t, ix, b.stmt.With); err != nil {
		return nil, err
	}
	if err := checkIndexTypes(t, ix); err != nil {
		return nil, err
	}
	if val, ok := b.stmt.With["leads"]; ok {
		if align {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "align = 'data' and leads cannot both be given").
				WithDetail("align = 'data' computes the leads from the table's rows.")
		}
		if err := bindLeads(t, ix, val); err != nil {
			return nil, err
		}
	}
	if n.KeyType == ast.IndexKeyTypeUnique {
		if err := bindUniqueIndex(ix, b.stmt.Constraints != nil && b.stmt.Constraints.IndexNullsNotDistinct); err != nil {
			return nil, err
		}
	}
	ci := &ir.CreateIndex{Table: t.Name, Index: ix, IfNotExists: n.IfNotExists, AlignToData: align}
	if err := b.partitionIndexes(t, ci); err != nil {
		return nil, err
	}
	return ci, nil
}

// parseAlign binds a Z-order index's align option: 'data' aligns the
// attributes to the table's rows when the index is built
// (CreateIndex.AlignToData), 'none' is the default layout.
func parseAlign(ix *catalog.Index, val string) (bool, error) {
	if ix.Kind != catalog.KindZOrder {
		return false, pgerr.New(pgerr.FeatureNotSupported, "align is not supported for %s indexes", ix.Kind).
			WithDetail("It places the bits of a Z-order index's attributes.")
	}
	switch strings.ToLower(strings.TrimSpace(val)) {
	case "data":
		return true, nil
	case "none":
		return false, nil
	}
	return false, pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"align\": %q", val).
		WithHint("Valid values are \"data\" and \"none\".")
}

// parseCovering binds an index's covering option: true stores every
// column of the table in its entries (catalog.Table.CoverRows), the
// default of a gist index over points; false stores its key and INCLUDE
// columns alone. An inverted index's entries hold tokens, not rows.
func parseCovering(ix *catalog.Index, val string) (bool, error) {
	if ix.Inverted() {
		return false, pgerr.New(pgerr.FeatureNotSupported, "covering is not supported for %s indexes", ix.Kind).
			WithDetail("Its entries hold tokens, not rows.")
	}
	on, ok := guc.ParseBool(strings.TrimSpace(val))
	if !ok {
		return false, pgerr.New(pgerr.InvalidParameterValue, "invalid value for boolean option \"covering\": %s", val)
	}
	return on, nil
}

// bindLeads binds WITH (leads = 'l1, l2, ...'): one lead per attribute of a
// Z-order index (catalog.KeyColumn.Lead), each between 0 and its width.
func bindLeads(t *catalog.Table, ix *catalog.Index, val string) error {
	if ix.Kind != catalog.KindZOrder {
		return pgerr.New(pgerr.FeatureNotSupported, "leads is not supported for %s indexes", ix.Kind).
			WithDetail("It places the bits of a Z-order index's attributes.")
	}
	parts := strings.Split(val, ",")
	if len(parts) != len(ix.Columns) {
		return pgerr.New(pgerr.InvalidParameterValue, "leads must give one number per index column (%d), not %q", len(ix.Columns), val)
	}
	for i, p := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 0 {
			return pgerr.New(pgerr.InvalidParameterValue, "leads must be non-negative integers, not %q", strings.TrimSpace(p))
		}
		ix.Columns[i].Lead = n
	}
	s, err := t.NewZSchema(ix)
	if err != nil {
		return pgerr.New(pgerr.InvalidParameterValue, "invalid leads %q: %v", val, err)
	}
	for i := range ix.Columns {
		if w := s.Attr(i).Width; ix.Columns[i].Lead > w {
			return pgerr.New(pgerr.InvalidParameterValue, "lead %d of column %q is wider than its %d bits", ix.Columns[i].Lead, t.KeyName(ix.Columns[i]), w)
		}
	}
	return nil
}

// checkIndexTypes rejects index columns whose type the index kind cannot
// order. Every supported type has a tuple encoding and a Z-order code, so
// today this only validates Z-order widths.
func checkIndexTypes(t *catalog.Table, ix *catalog.Index) error {
	if ix.Kind != catalog.KindZOrder {
		return nil
	}
	for _, k := range ix.Columns {
		if k.Width == 0 {
			continue
		}
		typ := t.KeyType(k)
		maxBits := 64
		switch typ.ID {
		case sqltypes.Bool:
			maxBits = 1
		case sqltypes.Int2:
			maxBits = 16
		case sqltypes.Int4, sqltypes.Float4, sqltypes.Date:
			maxBits = 32
		case sqltypes.Text, sqltypes.Varchar, sqltypes.Bytea, sqltypes.UUID:
			maxBits = 64
		}
		if k.Width < 1 || k.Width > maxBits {
			return pgerr.New(pgerr.InvalidParameterValue, "width %d for column %q must be between 1 and %d bits", k.Width, t.KeyName(k), maxBits)
		}
	}
	return nil
}

// tempRoutineSchema is the schema of the keys of the session's routines
// (CREATE FUNCTION pg_temp.f, or pg_temp_N.f), "pg_temp.f": they live in
// the session's temporary catalog.
const tempRoutineSchema = "pg_temp"

// isTempSchema reports whether a schema name names the session's schema
// of temporary objects: pg_temp, or its pg_temp_N spelling.
func isTempSchema(schema string) bool {
	return schema == "pg_temp" || strings.HasPrefix(schema, "pg_temp_")
}

// bindInvertedKeys checks a gin index as PostgreSQL does and gives each
// key part its operator class (catalog/inverted.go): named after the key,
// else its type's default. A gin index is never unique, keeps no included
// columns and has no order.
func (b *Binder) bindInvertedKeys(t *catalog.Table, ix *catalog.Index, n *ast.CreateIndexStmt) error {
	if n.KeyType == ast.IndexKeyTypeUnique {
		return pgerr.New(pgerr.FeatureNotSupported, "access method \"gin\" does not support unique indexes")
	}
	if len(b.stmt.Include) > 0 {
		return pgerr.New(pgerr.FeatureNotSupported, "access method \"gin\" does not support included columns")
	}
	for i := range ix.Columns {
		k := &ix.Columns[i]
		if k.Desc {
			return pgerr.New(pgerr.FeatureNotSupported, "access method \"gin\" does not support ASC/DESC options")
		}
		typ := t.KeyType(*k)
		if name, ok := b.stmt.IndexOpclasses[i]; ok {
			if err := catalog.CheckOpclass(name, typ); err != nil {
				return err
			}
			k.Opclass = name
			continue
		}
		name, err := catalog.DefaultOpclass(typ)
		if err != nil {
			return err
		}
		k.Opclass = name
	}
	if _, ok := b.stmt.With["shard_columns"]; ok {
		return pgerr.New(pgerr.FeatureNotSupported, "shard_columns is not supported for gin indexes").
			WithDetail("A gin index's entries are placed by the row's primary key.")
	}
	// The entries hold the primary key alone: the columns the key
	// expressions read are not copied into every token's entry.
	ix.ExprColumns = nil
	return nil
}

// deferrablePrimaryKey reports whether column col's PRIMARY KEY is
// DEFERRABLE: a row is stored under its primary key, so two rows cannot
// share one even for a while, and a rekeying UPDATE checks each row's new
// key as it writes it. (The parser records one deferral per column; one
// that also has UNIQUE or REFERENCES gives it to those.)
func deferrablePrimaryKey(cs *parser.ConstraintSyntax, col string, opts []*ast.ColumnOption) bool {
	if cs == nil || cs.ColumnDeferral[col] == "" {
		return false
	}
	for _, o := range opts {
		if o.Tp == ast.ColumnOptionUniqKey || o.Tp == ast.ColumnOptionReference {
			return false
		}
	}
	return true
}

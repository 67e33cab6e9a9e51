package planner

import (
	"slices"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// Schemas. A relation outside public is keyed by "schema.name" in the
// catalog (catalog/schemas.go). Before binding a statement, qualifyNames
// turns the table names it writes into those keys: a name qualified by a
// user schema becomes the schema's key, an unqualified one the key the
// session's search_path finds (catalog.Snapshot.Resolve), and the name of
// a relation the statement creates the key in the first schema of the
// path. The rest of the binder then finds relations by key as it always
// has. Names of WITH queries are left alone, and so are names qualified by
// public, pg_catalog, information_schema and pg_temp, which the binder
// resolves itself. The AST is restored after binding, since a prepared
// statement's AST is bound again when the schema or the path changes.

// qualifyNames rewrites node's table names to catalog keys and returns
// what puts them back. It does nothing until the catalog has a user
// schema (the snapshot has no search path then).
//
// stmt, the statement node is of, positions an error at its name; nil
// leaves it unset (a stored view's text is not the statement's).
func qualifyNames(snap *catalog.Snapshot, node ast.Node, temp bool, stmt *parser.Statement, more ...ast.Node) (restore func(), err error) {
	if node == nil {
		return func() {}, nil
	}
	if _, ok := snap.SearchPath(); !ok {
		if !snap.HasFunctions() {
			return func() {}, nil
		}
		// Without a path only calls of pg_temp's routines need their
		// keys (pg_temp.f is found qualified alone).
		q := &qualifier{snap: snap, callsOnly: true}
		node.Accept(q)
		for _, m := range more {
			m.Accept(q)
		}
		return q.restore, q.result(stmt)
	}
	q := &qualifier{snap: snap, ctes: map[string]bool{}, creates: map[*ast.TableName]bool{}}
	// A created table's key is chosen by newTable (which knows whether
	// it is temporary); a view's here, unless temporary.
	switch n := node.(type) {
	case *ast.DropTableStmt:
		q.dropping = true
	case *ast.CreateTableStmt:
		q.skip = n.Table
	case *ast.CreateViewStmt:
		if temp {
			q.skip = n.ViewName
		} else {
			q.creates[n.ViewName] = true
		}
	}
	node.Accept(q)
	for _, m := range more {
		m.Accept(q) // after node, whose WITH names the CTEs they may read
	}
	return q.restore, q.result(stmt)
}

// result is the first error the qualifier met, positioned at its name
// in stmt when stmt is given and the error has no position of its own.
func (q *qualifier) result(stmt *parser.Statement) error {
	pe := pgerr.As(q.err)
	switch {
	case pe == nil || pe.Position != 0 || stmt == nil:
	case q.errCall != nil:
		return pe.WithPosition(stmt.Position(q.errCall.OriginTextPosition()))
	case q.errName != "":
		return pe.WithPosition(stmt.NamePosition(q.errName))
	}
	return q.err
}

// restore puts back the names the qualifier rewrote.
func (q *qualifier) restore() {
	for i := len(q.saved) - 1; i >= 0; i-- {
		s := q.saved[i]
		s.tn.Schema, s.tn.Name = s.schema, s.name
	}
	for _, c := range q.savedCalls {
		c.fc.Schema, c.fc.FnName = c.schema, c.name
	}
}

type savedName struct {
	tn           *ast.TableName
	schema, name ast.CIStr
}

type qualifier struct {
	snap    *catalog.Snapshot
	ctes    map[string]bool
	creates map[*ast.TableName]bool
	skip    *ast.TableName
	saved   []savedName
	// savedCalls are the calls qualifyCall rewrote.
	savedCalls []savedCall
	err        error
	// errCall is the call err is about, errName the table name (whose
	// place the AST does not record): what result positions err at.
	errCall *ast.FuncCallExpr
	errName string
	// callsOnly qualifies calls of pg_temp's routines alone (a snapshot
	// without a search path).
	callsOnly bool
	// dropping is a DROP TABLE | VIEW, whose names dropNames checks.
	dropping bool
}

func (q *qualifier) Enter(n ast.Node) (ast.Node, bool) {
	if q.callsOnly {
		if fc, ok := n.(*ast.FuncCallExpr); ok {
			q.qualifyCall(fc)
		}
		return n, false
	}
	switch n := n.(type) {
	case *ast.WithClause:
		for _, c := range n.CTEs {
			q.ctes[c.Name.L] = true
		}
	case *ast.TableName:
		q.qualify(n)
	case *ast.FuncCallExpr:
		q.qualifyCall(n)
	}
	return n, false
}

// qualifyCall turns a call of a function qualified by a user schema,
// s.f(...), into a call of its key, "s.f" (catalog.Snapshot.Functions
// finds the functions stored under it); an unqualified name is left to
// Functions, which searches the path.
func (q *qualifier) qualifyCall(fc *ast.FuncCallExpr) {
	schema := fc.Schema.O
	switch {
	case isTempSchema(fc.Schema.L):
		schema = tempRoutineSchema // the session's routines are keyed pg_temp.f
	case schema == catalog.PublicSchema && !q.callsOnly && len(q.snap.FunctionsByKey(fc.FnName.L)) > 0:
		// public's routines are keyed by their bare names, which the path
		// searches; "public.f" is found by that key whatever the path
		// (pg_dump's text, under an empty path, calls public.f).
		q.savedCalls = append(q.savedCalls, savedCall{fc: fc, schema: fc.Schema, name: fc.FnName})
		key := catalog.PublicSchema + "." + fc.FnName.L
		fc.Schema, fc.FnName = ast.CIStr{}, ast.CIStr{O: key, L: key}
		return
	case q.callsOnly || schema == "" || schema == catalog.PublicSchema || schema == "pg_catalog":
		return
	case !q.snap.HasSchema(schema):
		q.fail(pgerr.New(pgerr.InvalidSchemaName, "schema \"%s\" does not exist", schema), fc, "")
		return
	case q.snap.UsageDenied(schema):
		q.fail(pgerr.New(pgerr.InsufficientPrivilege, "permission denied for schema %s", schema), fc, "")
		return
	}
	q.savedCalls = append(q.savedCalls, savedCall{fc: fc, schema: fc.Schema, name: fc.FnName})
	key := catalog.QualifiedKey(schema, fc.FnName.L)
	fc.Schema, fc.FnName = ast.CIStr{}, ast.CIStr{O: key, L: key}
}

type savedCall struct {
	fc           *ast.FuncCallExpr
	schema, name ast.CIStr
}

func (q *qualifier) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// fail keeps the first error met, and the call or the name it is about.
func (q *qualifier) fail(err error, call *ast.FuncCallExpr, name string) {
	if q.err == nil {
		q.err, q.errCall, q.errName = err, call, name
	}
}

func (q *qualifier) qualify(tn *ast.TableName) {
	if tn == q.skip && tn.Schema.O == "" {
		return
	}
	schema, name := tn.Schema.O, tn.Name.O
	key := name
	switch {
	case schema == "":
		if q.ctes[tn.Name.L] {
			return
		}
		if q.creates[tn] {
			k, err := q.snap.CreationKey(name)
			if err != nil {
				// (Without a position: PostgreSQL's "no schema has been
				// selected to create in" for a view has none.)
				q.fail(err, nil, "")
				return
			}
			key = k
		} else {
			key = q.snap.Resolve(name)
			if !q.dropping && q.snap.PublicOffPath(name) {
				// Found by key, public's relation would stand in for
				// what the path does not find.
				q.fail(pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", name), nil, name)
			}
		}
	case schema == catalog.PublicSchema || schema == "pg_catalog" || schema == "information_schema" || strings.HasPrefix(schema, "pg_temp") || strings.HasPrefix(schema, "pg_toast"):
		return
	default:
		if !q.snap.HasSchema(schema) {
			return // the binder reports the unknown schema
		}
		key = catalog.QualifiedKey(schema, name)
	}
	if key == name && schema == "" {
		return
	}
	q.saved = append(q.saved, savedName{tn: tn, schema: tn.Schema, name: tn.Name})
	tn.Schema = ast.NewCIStr("")
	tn.Name = ast.CIStr{O: key, L: strings.ToLower(key)}
}

// qualifyStored is qualifyNames for an expression a schema object keeps
// as text (a DEFAULT, a CHECK), parsed afresh for each binding, so nothing
// is put back.
func qualifyStored(snap *catalog.Snapshot, node ast.Node) error {
	_, err := qualifyNames(snap, node, false, nil)
	return err
}

// qualifySpecial does for the statements the front end parses itself
// (their names are strings: "name", or "schema.name" for a schema other
// than public) what qualifyNames does for the AST: each relation name
// becomes the key search_path finds, a created relation's the key in the
// path's first schema, and a new name given by RENAME the key in the
// renamed relation's schema.
func qualifySpecial(snap *catalog.Snapshot, st *parser.Statement) (restore func(), err error) {
	unkey := publicKeys(st)
	undo, err := qualifySpecialNames(snap, st)
	return func() { undo(); unkey() }, err
}

// publicKeys makes the names a statement gives new objects (CREATE
// SEQUENCE public.s, RENAME TO) keys where public is written: public's
// keys are bare. The names it looks up keep "public.", which the catalog
// binds to public exactly (catalog.Snapshot.lookupRelation).
func publicKeys(st *parser.Statement) (restore func()) {
	type saved struct {
		p   *string
		old string
	}
	var undo []saved
	key := func(p *string) {
		if bare, ok := strings.CutPrefix(*p, catalog.PublicSchema+"."); ok {
			undo = append(undo, saved{p, *p})
			*p = bare
		}
	}
	if q := st.Sequence; q != nil {
		if q.Kind == "create" {
			for i := range q.Names {
				key(&q.Names[i])
			}
		} else if !q.SetSchema {
			key(&q.RenameTo)
		}
	}
	if a := st.Alter; a != nil {
		for i := range a.Actions {
			if k := a.Actions[i].Kind; k == parser.AlterRenameIndex || k == parser.AlterRenameTable && !a.Actions[i].SetSchema {
				key(&a.Actions[i].NewName)
			}
		}
	}
	return func() {
		for i := len(undo) - 1; i >= 0; i-- {
			*undo[i].p = undo[i].old
		}
	}
}

// qualifySpecialNames is qualifySpecial after publicKeys.
func qualifySpecialNames(snap *catalog.Snapshot, st *parser.Statement) (restore func(), err error) {
	if _, ok := snap.SearchPath(); !ok {
		// Without a search path a bare key is public's: a routine named
		// public.f (parser's routineName) is f, in place.
		if r := st.Routine; r != nil {
			for i := range r.Refs {
				r.Refs[i].Name = strings.TrimPrefix(r.Refs[i].Name, catalog.PublicSchema+".")
			}
		}
		if t := st.Type; t != nil {
			// Without a search path a bare key is public's: a type name
			// qualified by public (parser's typeName) becomes one, in
			// place (the same name each binding).
			for i := range t.Names {
				t.Names[i] = strings.TrimPrefix(t.Names[i], catalog.PublicSchema+".")
				if sc, name, ok := strings.Cut(t.Names[i], "."); ok && isTempSchema(strings.ToLower(sc)) {
					t.Names[i] = catalog.QualifiedKey(catalog.TempTypeSchema, name)
				}
			}
			switch t.Action {
			case parser.TypeCreateEnum, parser.TypeCreateDomain, parser.TypeCreateComposite, parser.TypeCreateRange:
			default:
				// The session's temporary types come first (ResolveType);
				// a change of one goes to its catalog under its key.
				c := *t
				c.Names = append([]string(nil), t.Names...)
				for i := range c.Names {
					c.Names[i] = snap.ResolveType(c.Names[i])
				}
				st.Type = &c
				restoreTempRoutines := qualifyTempRoutines(st)
				return func() { st.Type = t; restoreTempRoutines() }, nil
			}
			t.Range.MultirangeTypeName = strings.TrimPrefix(t.Range.MultirangeTypeName, catalog.PublicSchema+".")
		}
		return qualifyTempRoutines(st), nil
	}
	type saved struct {
		p   *string
		old string
	}
	var undo []saved
	set := func(p *string, v string) {
		if *p != v {
			undo = append(undo, saved{p, *p})
			*p = v
		}
	}
	// rel makes *p the key of the relation it names. One of public's
	// relations the path does not reach is no relation (42P01, with
	// kind's wording), or under IF EXISTS a key nothing is stored under,
	// since the executor's lookups by key would find public's.
	relAs := func(p *string, kind string, ifExists bool) string {
		switch {
		case *p == "" || strings.IndexByte(*p, '.') >= 0:
			// A key, or public.t: the lookups bind it as it is.
		case !snap.PublicOffPath(*p):
			set(p, snap.Resolve(*p))
		case ifExists:
			set(p, catalog.QualifiedKey(catalog.TempTypeSchema, *p))
		case err == nil:
			err = pgerr.New(pgerr.UndefinedTable, "%s \"%s\" does not exist", kind, *p)
		}
		return *p
	}
	rel := func(p *string) string { return relAs(p, "relation", false) }
	create := func(p *string) {
		if strings.IndexByte(*p, '.') >= 0 {
			return
		}
		k, cerr := snap.CreationKey(*p)
		if cerr != nil {
			if err == nil {
				err = cerr
			}
			return
		}
		set(p, k)
	}
	sibling := func(of string, p *string) {
		if *p != "" && strings.IndexByte(*p, '.') < 0 {
			sc, _ := catalog.SplitName(of)
			set(p, catalog.QualifiedKey(sc, *p))
		}
	}
	// Types, domains and routines are keyed as relations are: a name
	// qualified by a user schema is its key (the schema must exist), an
	// unqualified one the key the search path finds, a created one's the
	// key in the path's first schema. The bound statement keeps the
	// statement's description itself, so the keys go into a copy of it
	// that replaces it until restore.
	var swaps []func()
	named := func(p *string, creating bool, resolve func(string) string) {
		if err != nil {
			return
		}
		if sc, name, ok := strings.Cut(*p, "."); ok {
			if isTempSchema(strings.ToLower(sc)) {
				*p = catalog.QualifiedKey(tempRoutineSchema, name)
				return
			}
			if sc == catalog.PublicSchema {
				*p = name // public's keys are bare (parser's typeName)
				return
			}
			if !snap.HasSchema(sc) {
				err = pgerr.New(pgerr.InvalidSchemaName, "schema \"%s\" does not exist", sc)
			}
			return
		}
		if !creating {
			*p = resolve(*p)
			return
		}
		k, cerr := snap.CreationKey(*p)
		if cerr != nil {
			err = cerr
			return
		}
		*p = k
	}
	newSibling := func(of string, p *string, setSchema bool) {
		if setSchema {
			// SET SCHEMA: the same name in the schema *p names.
			if isTempSchema(strings.ToLower(*p)) {
				if err == nil {
					err = errTempMove()
				}
				return
			}
			if !snap.HasSchema(*p) {
				if err == nil {
					err = pgerr.New(pgerr.InvalidSchemaName, "schema \"%s\" does not exist", *p)
				}
				return
			}
			_, name := catalog.SplitName(of)
			*p = catalog.QualifiedKey(*p, name)
			return
		}
		if *p != "" && strings.IndexByte(*p, '.') < 0 {
			sc, _ := catalog.SplitName(of)
			*p = catalog.QualifiedKey(sc, *p)
		}
	}
	if t := st.Type; t != nil {
		c := *t
		c.Names = append([]string(nil), t.Names...)
		st.Type, swaps = &c, append(swaps, func() { st.Type = t })
		creating := c.Action == parser.TypeCreateEnum || c.Action == parser.TypeCreateDomain || c.Action == parser.TypeCreateComposite || c.Action == parser.TypeCreateRange
		for i := range c.Names {
			named(&c.Names[i], creating, snap.ResolveType)
		}
		if c.Range.MultirangeTypeName != "" {
			// A multirange type's name given unqualified goes where a
			// new type's does (a default one, to the range type's
			// schema: the executor's).
			named(&c.Range.MultirangeTypeName, true, snap.ResolveType)
		}
		if c.Action == parser.TypeRename && len(c.Names) > 0 {
			newSibling(c.Names[0], &c.NewName, c.SetSchema)
		}
	}
	if r := st.Routine; r != nil && r.Operator == nil && r.Cast == nil && r.Action != parser.RoutineCall && r.Action != parser.RoutineDo {
		c := *r
		c.Refs = append([]parser.RoutineRef(nil), r.Refs...)
		st.Routine, swaps = &c, append(swaps, func() { st.Routine = r })
		for i := range c.Refs {
			ref := c.Refs[i]
			named(&c.Refs[i].Name, c.Action == parser.RoutineCreate, func(name string) string {
				return resolveRoutineRef(snap, name, ref)
			})
		}
		if c.Action == parser.RoutineRename && len(c.Refs) > 0 {
			newSibling(c.Refs[0].Name, &c.NewName, c.SetSchema)
		}
	}
	if a := st.Alter; a != nil {
		index := false
		for _, act := range a.Actions {
			index = index || act.Kind == parser.AlterRenameIndex || act.Kind == parser.AlterAttachIndex
		}
		if !index {
			key := relAs(&a.Table, "relation", a.IfExists)
			for i := range a.Actions {
				if a.Actions[i].Kind == parser.AlterRenameTable && a.Actions[i].SetSchema {
					// SET SCHEMA: the name, kept, in the new schema.
					schema := a.Actions[i].NewName
					moved := schema
					newSibling(key, &moved, true)
					set(&a.Actions[i].NewName, moved)
				} else if a.Actions[i].Kind == parser.AlterRenameTable {
					sibling(key, &a.Actions[i].NewName)
				}
			}
		}
	}
	if o := st.Owner; o != nil {
		relAs(&o.Name, "relation", o.IfExists)
	}
	if t := st.Truncate; t != nil {
		for i := range t.Tables {
			rel(&t.Tables[i])
		}
	}
	if l := st.Lock; l != nil {
		for i := range l.Tables {
			rel(&l.Tables[i])
		}
	}
	if a := st.Analyze; a != nil {
		for i := range a.Tables {
			if a.Tables[i].Schema == "" {
				rel(&a.Tables[i].Name)
			}
		}
	}
	if r := st.Refresh; r != nil {
		rel(&r.Name)
	}
	if r := st.Reindex; r != nil && r.Kind == "table" {
		rel(&r.Name)
	}
	if t := st.Trigger; t != nil {
		rel(&t.Table)
	}
	if q := st.Sequence; q != nil {
		// OWNED BY's table is bound as written (bindSequence's ownerKey).
		for i := range q.Names {
			if q.Kind == "create" {
				if !q.Qualified && !q.Temp { // a temporary sequence is keyed by its bare name
					create(&q.Names[i])
				}
			} else {
				kind := "relation"
				if q.Kind == "drop" {
					kind = "sequence"
				}
				key := relAs(&q.Names[i], kind, q.IfExists)
				if i == 0 && q.SetSchema {
					newSibling(key, &q.RenameTo, true)
				} else if i == 0 {
					sibling(key, &q.RenameTo)
				}
			}
		}
	}
	return func() {
		for i := len(undo) - 1; i >= 0; i-- {
			*undo[i].p = undo[i].old
		}
		for _, swap := range swaps {
			swap()
		}
	}, err
}

// errTempMove is PostgreSQL's error for SET SCHEMA into or out of pg_temp.
func errTempMove() error {
	return pgerr.New(pgerr.FeatureNotSupported, "cannot move objects into or out of temporary schemas")
}

// qualifyTempRoutines is qualifySpecial without a search path for the
// routines of pg_temp, which the session's temporary catalog keys
// "pg_temp.f" (tempRoutineSchema): a routine named pg_temp_N.f is keyed
// so, and the new name RENAME gives one of them is in pg_temp too.
func qualifyTempRoutines(st *parser.Statement) (restore func()) {
	r := st.Routine
	if r == nil || r.Operator != nil || r.Cast != nil || len(r.Refs) == 0 {
		return func() {}
	}
	temp := false
	for _, ref := range r.Refs {
		sc, _, ok := strings.Cut(ref.Name, ".")
		temp = temp || ok && isTempSchema(strings.ToLower(sc))
	}
	if !temp {
		return func() {}
	}
	c := *r
	c.Refs = append([]parser.RoutineRef(nil), r.Refs...)
	for i := range c.Refs {
		if sc, name, ok := strings.Cut(c.Refs[i].Name, "."); ok && isTempSchema(strings.ToLower(sc)) {
			c.Refs[i].Name = catalog.QualifiedKey(tempRoutineSchema, name)
		}
	}
	if c.Action == parser.RoutineRename && !c.SetSchema && c.NewName != "" && strings.IndexByte(c.NewName, '.') < 0 {
		if sc, _ := catalog.SplitName(c.Refs[0].Name); sc == tempRoutineSchema {
			c.NewName = catalog.QualifiedKey(tempRoutineSchema, c.NewName)
		}
	}
	st.Routine = &c
	return func() { st.Routine = r }
}

// resolveRoutineRef is the key of the routine an unqualified name in DROP
// or ALTER denotes: with an argument list, the first schema of the path
// holding a routine of that name and those input types (the types the
// binder resolves, compared by OID), else the first holding the name.
func resolveRoutineRef(snap *catalog.Snapshot, name string, ref parser.RoutineRef) string {
	if !ref.HasArgs {
		return snap.ResolveFunction(name)
	}
	var want []uint32
	for _, a := range ref.Args {
		if a.Mode == parser.ModeOut {
			continue
		}
		t := a.Type
		if a.TypeName != "" {
			ut, err := columnTypeName(snap, a.TypeName)
			if err != nil {
				return snap.ResolveFunction(name)
			}
			t = ut
		}
		want = append(want, t.OID())
	}
	path, _ := snap.SearchPath()
	for _, sc := range path {
		key := catalog.QualifiedKey(sc, name)
		for _, fn := range snap.FunctionsByKey(key) {
			var have []uint32
			for _, p := range fn.Params {
				if p.IsInput() {
					have = append(have, p.Type.OID())
				}
			}
			if slices.Equal(have, want) {
				return key
			}
		}
	}
	return snap.ResolveFunction(name)
}

// storedPath is the search path a view or materialized view created now
// keeps for its query, which is stored as text and bound again wherever
// it is read: the creating snapshot's path, or nil before any user schema
// existed (everything was in public then).
func (b *Binder) storedPath() []string {
	if p, ok := b.snap.SearchPath(); ok {
		if p == nil {
			p = []string{}
		}
		return p
	}
	return nil
}

// bindStored binds the query of a stored view or materialized view the
// way it was bound when created: its names resolved through the search
// path it was created under (path; nil for public alone), whatever the
// reading session's path is.
func (b *Binder) bindStored(path []string, node ast.StmtNode, bind func() (ir.Rel, error)) (ir.Rel, error) {
	if _, ok := b.snap.SearchPath(); !ok {
		// Calls of pg_temp's routines still need their keys.
		restore, err := qualifyNames(b.snap, node, false, nil)
		defer restore()
		if err != nil {
			return nil, err
		}
		return bind()
	}
	if path == nil {
		path = []string{catalog.PublicSchema}
	}
	saved := b.snap
	b.snap = b.snap.WithPath(path)
	defer func() { b.snap = saved }()
	restore, err := qualifyNames(b.snap, node, false, nil)
	defer restore()
	if err != nil {
		return nil, err
	}
	return bind()
}

// dropNames are the keys of the relations DROP TABLE | VIEW | MATERIALIZED
// VIEW names: public.t is public's t ("public.t", which the catalog reads
// past a temporary t), a bare name of one of public's relations the path
// does not reach none (42P01, or skipped under IF EXISTS).
func (b *Binder) dropNames(n *ast.DropTableStmt) ([]string, error) {
	kind := "table"
	switch {
	case b.stmt.Matview:
		kind = "materialized view"
	case n.IsView:
		kind = "view"
	}
	var names []string
	for _, t := range n.Tables {
		name := t.Name.O
		switch {
		case t.Schema.L == catalog.PublicSchema:
			name = catalog.PublicSchema + "." + name
		case t.Schema.O == "" && b.snap.PublicOffPath(name):
			if n.IfExists {
				continue
			}
			return nil, pgerr.New(pgerr.UndefinedTable, "%s \"%s\" does not exist", kind, name)
		}
		names = append(names, name)
	}
	return names, nil
}

// tableKey is the name the catalog finds tn's relation by once
// qualifyNames has run: "public.t" for a name qualified by public
// (public's t, past a temporary t), else the name (a key or a bare name
// the path resolves).
func tableKey(tn *ast.TableName) string {
	if tn.Schema.L == catalog.PublicSchema {
		return catalog.PublicSchema + "." + tn.Name.O
	}
	return tn.Name.O
}

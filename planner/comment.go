package planner

import (
	"strconv"
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// bindComment resolves the object of a COMMENT ON.
func bindComment(snap *catalog.Snapshot, cs *parser.CommentStatement) (*ir.Comment, error) {
	name := cs.Name
	c := &ir.Comment{Column: -1, Text: cs.Text}
	col := ""
	if cs.Object == "column" {
		if len(name) < 2 {
			return nil, pgerr.New(pgerr.SyntaxError, "column name must be qualified").WithPosition(cs.Pos)
		}
		col, name = name[len(name)-1], name[:len(name)-1]
	}
	if cs.Object == "schema" {
		if len(name) != 1 {
			return nil, pgerr.New(pgerr.SyntaxError, "schema name can not be qualified").WithPosition(cs.Pos)
		}
		if _, ok := snap.Schema(name[0]); !ok {
			if name[0] == catalog.PublicSchema || name[0] == "pg_catalog" || name[0] == "information_schema" {
				return nil, pgerr.New(pgerr.FeatureNotSupported, "COMMENT ON SCHEMA %s is not supported (the schema is built into zproxy)", name[0])
			}
			return nil, pgerr.New(pgerr.InvalidSchemaName, "schema %q does not exist", name[0])
		}
		c.Schema = name[0]
		return c, nil
	}
	switch cs.Object {
	case "large object":
		oid, err := strconv.ParseUint(name[0], 10, 32)
		if err != nil || oid == 0 {
			return nil, pgerr.New(pgerr.UndefinedObject, "large object %s does not exist", name[0]).WithPosition(cs.Pos)
		}
		c.LargeObject = uint32(oid)
		return c, nil
	case "extension":
		if len(name) != 1 {
			return nil, pgerr.New(pgerr.SyntaxError, "extension name can not be qualified").WithPosition(cs.Pos)
		}
		for _, x := range pgcatalog.Extensions {
			if x.Name != name[0] {
				continue
			}
			if cs.Text != x.Description {
				// pg_dump writes the control file's comment back, which
				// zproxy's built-in extensions already carry.
				return nil, pgerr.New(pgerr.FeatureNotSupported, "changing the comment of extension %q is not supported", x.Name).
					WithDetail("zproxy's extensions are built in; each keeps its control file's comment: %s", x.Description)
			}
			c.Extension = x.Name
			return c, nil
		}
		return nil, pgerr.New(pgerr.UndefinedObject, "extension %q does not exist", name[0]).WithPosition(cs.Pos)
	case "database", "role":
		if len(name) != 1 {
			return nil, pgerr.New(pgerr.SyntaxError, "%s name can not be qualified", cs.Object).WithPosition(cs.Pos)
		}
		if cs.Object == "database" {
			c.Database = name[0]
		} else {
			c.Role = name[0]
		}
		return c, nil
	case "trigger", "constraint":
		if len(name) != 1 {
			return nil, pgerr.New(pgerr.SyntaxError, "%s name can not be qualified", cs.Object).WithPosition(cs.Pos)
		}
		return bindTriggerComment(snap, c, name[0], cs)
	}
	if len(name) > 2 || len(name) == 2 && name[0] != "public" && !snap.HasSchema(name[0]) {
		return nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", strings.Join(name, ".")).WithPosition(cs.Pos)
	}
	// A relation of a user schema is found by its key; an unqualified
	// name through search_path (catalog/schemas.go).
	// The lookups bind the name as written ("public.t" is public's t).
	rel := strings.Join(name, ".")
	switch cs.Object {
	case "sequence":
		q, ok := snap.Sequence(rel)
		if !ok {
			if _, err := snap.Table(rel); err == nil {
				return nil, pgerr.New(pgerr.WrongObjectType, "%q is not a sequence", rel).WithPosition(cs.Pos)
			}
			return nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", rel).WithPosition(cs.Pos)
		}
		c.Sequence = q
		return c, nil
	case "view":
		v, ok := snap.StoredView(rel)
		if !ok {
			return nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", rel).WithPosition(cs.Pos)
		}
		c.View = v
		return c, nil
	case "index":
		t, ix := snap.FindIndex(rel)
		if ix == nil {
			return nil, pgerr.New(pgerr.UndefinedObject, "index %q does not exist", rel).WithPosition(cs.Pos)
		}
		c.Table, c.Index = t, ix.Name
		return c, nil
	}
	t, err := snap.Table(rel)
	if err != nil {
		if _, ok := snap.Sequence(rel); ok && cs.Object == "table" {
			return nil, pgerr.New(pgerr.WrongObjectType, "%q is not a table", rel).WithPosition(cs.Pos)
		}
		if v, ok := snap.StoredView(rel); ok && cs.Object == "column" {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "COMMENT ON COLUMN of view %q is not supported", v.Name)
		}
		return nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", rel).WithPosition(cs.Pos)
	}
	if cs.Object == "materialized view" && !t.IsMatview() {
		return nil, pgerr.New(pgerr.WrongObjectType, "%q is not a materialized view", rel)
	}
	c.Table = t
	if col != "" {
		c.Column = t.ColumnIndex(col)
		if c.Column < 0 || t.Columns[c.Column].Hidden {
			return nil, pgerr.New(pgerr.UndefinedColumn, "column %q of relation %q does not exist", col, rel)
		}
	}
	return c, nil
}

// bindTriggerComment resolves COMMENT ON TRIGGER | CONSTRAINT name ON
// relation: a table's or a view's trigger, a table's constraint.
func bindTriggerComment(snap *catalog.Snapshot, c *ir.Comment, trigger string, cs *parser.CommentStatement) (*ir.Comment, error) {
	on := cs.On
	if len(on) > 2 || len(on) == 2 && on[0] != "public" && !snap.HasSchema(on[0]) {
		return nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", strings.Join(on, "."))
	}
	rel := strings.Join(on, ".")
	if cs.Object == "constraint" {
		t, err := snap.Table(rel)
		if err != nil {
			return nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", rel)
		}
		if !t.HasConstraint(trigger) {
			return nil, pgerr.New(pgerr.UndefinedObject, "constraint %q for table %q does not exist", trigger, on[len(on)-1])
		}
		c.Table, c.Constraint = t, trigger
		return c, nil
	}
	var triggers []*catalog.Trigger
	if t, err := snap.Table(rel); err == nil {
		c.Table, triggers = t, t.Triggers
	} else if v, ok := snap.StoredView(rel); ok {
		c.View, triggers = v, v.Triggers
	} else {
		return nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", rel)
	}
	for _, tg := range triggers {
		if tg.Name == trigger {
			c.Trigger = trigger
			return c, nil
		}
	}
	return nil, pgerr.New(pgerr.UndefinedObject, "trigger %q for table %q does not exist", trigger, on[len(on)-1])
}

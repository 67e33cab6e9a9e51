package session

import (
	"context"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
	"github.com/zproxy/zproxy/wire"
)

func init() { runs((*statement).runTypeChange) }

// runTypeChange runs CREATE TYPE ... AS ENUM, ALTER TYPE and DROP TYPE.
// ALTER TYPE ... OWNER TO follows ALTER TABLE's rules: the new owner must
// exist, and a role that is not a superuser must be a member of it.
func (st *statement) runTypeChange(ctx context.Context, x *ir.TypeChange, env *runEnv) (wire.Result, error) {
	s := st.sess
	e := s.engine
	if x.Action == parser.TypeOwner {
		c := *x.TypeStatement
		c.NewName = s.ownerRole(c.NewName)
		x = &ir.TypeChange{TypeStatement: &c}
		snap, err := s.snapshot(ctx)
		if err != nil {
			return nil, err
		}
		if err := s.checkNewOwner(snap, c.NewName); err != nil {
			return nil, err
		}
	}
	cat, err := s.typeCatalog(ctx, x)
	if err != nil {
		return nil, err
	}
	if err := e.exec.ChangeType(ctx, cat, x, s.currentUser(), s.notice); err != nil {
		return nil, storeErr(err)
	}
	if cat == s.temp.cat && createsType(x) && s.txStatus != 'I' {
		// A new type of pg_temp goes at ROLLBACK, as a temporary table
		// does (the temporary catalog is outside the block).
		s.temp.created = append(s.temp.created, tempObject{name: x.Names[0], typ: true})
	}
	return tagResult(x.Describe().Tag), nil
}

// createsType reports whether x creates a type.
func createsType(x *ir.TypeChange) bool {
	switch x.Action {
	case parser.TypeCreateEnum, parser.TypeCreateDomain, parser.TypeCreateComposite, parser.TypeCreateRange:
		return true
	}
	return false
}

// typeCatalog is the catalog a type statement changes: the session's
// temporary one for types of pg_temp (CREATE TYPE pg_temp.mood makes a
// type of the session, as PostgreSQL makes it in the session's temporary
// schema; the binder keyed an unqualified name the search path finds
// there "pg_temp.mood"), else the permanent one.
func (s *Session) typeCatalog(ctx context.Context, x *ir.TypeChange) (*catalog.Catalog, error) {
	temp := 0
	for _, n := range x.Names {
		if sc, _ := catalog.SplitName(n); sc == catalog.TempTypeSchema {
			temp++
		}
	}
	if x.Action == parser.TypeRename && x.SetSchema {
		if sc, _ := catalog.SplitName(x.NewName); temp > 0 || sc == catalog.TempTypeSchema || x.NewName == catalog.TempTypeSchema {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot move objects into or out of temporary schemas")
		}
	}
	switch {
	case temp == 0:
		return s.permCatalog(ctx)
	case temp < len(x.Names):
		return nil, pgerr.New(pgerr.FeatureNotSupported, "a statement naming both temporary and permanent types is not supported").
			WithHint("Drop them with one statement each.")
	case createsType(x):
		return s.catalogForNew(ctx, true)
	case s.temp.cat != nil:
		return s.temp.cat, s.tempChangeAllowed()
	}
	return s.permCatalog(ctx) // the session has none: the statement finds no type
}

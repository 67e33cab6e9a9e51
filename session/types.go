package session

import (
	"context"

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
	cat, err := s.permCatalog(ctx)
	if err != nil {
		return nil, err
	}
	if err := e.exec.ChangeType(ctx, cat, x, s.currentUser(), s.notice); err != nil {
		return nil, storeErr(err)
	}
	return tagResult(x.Describe().Tag), nil
}

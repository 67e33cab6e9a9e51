package session

import (
	"context"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/wire"
)

func init() { runs((*statement).runAlterOwner) }

// ownerRole is the role a statement names (OWNER TO, GRANT ... TO,
// AUTHORIZATION): CURRENT_USER and CURRENT_ROLE are the current user,
// SESSION_USER the session user (setrole.go).
func (s *Session) ownerRole(role string) string {
	switch role {
	case "current_user", "current_role":
		return s.currentUser()
	case "session_user":
		return s.sessionUser()
	}
	return role
}

// checkNewOwner applies PostgreSQL's rules for OWNER TO role: the role
// must exist, and a role that is not a superuser must be a member of it.
func (s *Session) checkNewOwner(snap *catalog.Snapshot, role string) error {
	if !roleExists(snap, role) { // the bootstrap superuser too, which no role item stores
		return pgerr.New(pgerr.UndefinedObject, "role \"%s\" does not exist", role)
	}
	if !s.isSuperuser(snap) && role != s.currentUser() && !snap.IsMemberOf(s.currentUser(), role) {
		return pgerr.New(pgerr.InsufficientPrivilege, "must be member of role \"%s\"", role)
	}
	return nil
}

// runAlterOwner runs ALTER ... OWNER TO as PostgreSQL 15 does: the new
// owner must exist, and a role that is not a superuser must own the
// relation (checked before, from Describe) and be a member of the new
// owner. A SERIAL or identity column's sequence follows its table.
func (st *statement) runAlterOwner(ctx context.Context, x *ir.AlterOwner, env *runEnv) (wire.Result, error) {
	s := st.sess
	if x.Missing != "" {
		s.notice(pgerr.Notice("relation \"%s\" does not exist, skipping", x.Missing))
		return tagResult(x.Tag), nil
	}
	role := s.ownerRole(x.Role)
	if x.LargeObject != 0 {
		return s.alterLargeObjectOwner(ctx, x, role)
	}
	cat, err := s.permCatalog(ctx)
	if err != nil {
		return nil, err
	}
	_, err = cat.Update(ctx, func(snap *catalog.Snapshot, _ uint64) (catalog.Change, error) {
		if err := s.checkNewOwner(snap, role); err != nil {
			return catalog.Change{}, err
		}
		var ch catalog.Change
		switch {
		case x.View != nil:
			v, ok := snap.StoredView(x.View.Name)
			if !ok {
				return ch, pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", x.View.Name)
			}
			nv := *v
			nv.Owner = role
			ch.PutViews = append(ch.PutViews, &nv)
		case x.Sequence != nil:
			q, ok := snap.Sequence(x.Sequence.Name)
			if !ok {
				return ch, pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", x.Sequence.Name)
			}
			nq := *q
			nq.Owner = role
			ch.PutSequences = append(ch.PutSequences, &nq)
		default:
			t, err := snap.Table(x.Table.Name)
			if err != nil || t.ID != x.Table.ID {
				return ch, pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", x.Table.Name)
			}
			nt := t.Clone()
			nt.Owner = role
			ch.Put = append(ch.Put, nt)
			for _, q := range snap.Sequences() {
				if owned, _, ok := catalog.SplitOwnedBy(q.OwnedBy); ok && owned == t.Name {
					nq := *q
					nq.Owner = role
					ch.PutSequences = append(ch.PutSequences, &nq)
				}
			}
		}
		return ch, nil
	})
	if err != nil {
		return nil, storeErr(err)
	}
	return tagResult(x.Tag), nil
}

// alterLargeObjectOwner is ALTER LARGE OBJECT oid OWNER TO role: the
// owner (or a superuser) gives the object to a role it is a member of;
// the old owner's ACL entry becomes the new owner's, as PostgreSQL's
// aclnewowner moves it.
func (s *Session) alterLargeObjectOwner(ctx context.Context, x *ir.AlterOwner, role string) (wire.Result, error) {
	rw, lo, snap, err := s.ownedLargeObject(ctx, x.LargeObject)
	if err != nil {
		return nil, err
	}
	if err := s.checkNewOwner(snap, role); err != nil {
		return nil, err
	}
	lo.ChangeOwner(role)
	if err := catalog.SetLargeObjectMeta(ctx, rw, lo); err != nil {
		return nil, storeErr(err)
	}
	return tagResult(x.Tag), nil
}

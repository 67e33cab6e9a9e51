package session

import (
	"context"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/wire"
)

func init() { runs((*statement).runLock) }

// runLock runs LOCK TABLE. zproxy's transactions are optimistic snapshots:
// a block's reads see one consistent state without locking, and
// conflicting writes fail at COMMIT (40001) instead of waiting. So the
// modes no stronger than ROW EXCLUSIVE, which conflict only with the
// strong modes, are taken as PostgreSQL takes them (checked, in a block,
// held to its end) and need nothing more; the strong modes, whose point
// is to make other sessions' writes wait, are refused (0A000) rather than
// accepted and not honoured. README.md, "Locks", says so.
func (st *statement) runLock(ctx context.Context, x *ir.Lock, env *runEnv) (wire.Result, error) {
	s := st.sess
	if s.txStatus == 'I' {
		return nil, pgerr.New(pgerr.NoActiveSQLTransaction, "LOCK TABLE can only be used in transaction blocks")
	}
	snap, err := s.snapshot(ctx)
	if err != nil {
		return nil, storeErr(err)
	}
	if !s.isSuperuser(snap) {
		// PostgreSQL's LockTableAclCheck: any one of these privileges.
		need := catalog.PrivUpdate | catalog.PrivDelete | catalog.PrivTruncate
		switch x.Mode {
		case "ACCESS SHARE":
			need = catalog.PrivSelect
		case "ROW EXCLUSIVE":
			need = catalog.PrivInsert | catalog.PrivUpdate | catalog.PrivDelete | catalog.PrivTruncate
		}
		for _, t := range x.Tables {
			if snap.Privileges(s.currentUser(), t)&need == 0 {
				return nil, pgerr.New(pgerr.InsufficientPrivilege, "permission denied for table %s", t.Name)
			}
		}
		for _, v := range x.Views {
			if snap.ViewPrivileges(s.currentUser(), v)&need == 0 {
				return nil, pgerr.New(pgerr.InsufficientPrivilege, "permission denied for view %s", v.Name)
			}
		}
	}
	switch x.Mode {
	case "ACCESS SHARE", "ROW SHARE", "ROW EXCLUSIVE":
		return tagResult("LOCK TABLE"), nil
	}
	return nil, pgerr.New(pgerr.FeatureNotSupported, "LOCK TABLE ... IN %s MODE is not supported", x.Mode).
		WithHint("zproxy's transactions do not wait for each other: conflicting writes fail at COMMIT with 40001. ACCESS SHARE, ROW SHARE and ROW EXCLUSIVE are accepted.")
}

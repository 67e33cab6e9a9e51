package pgcatalog

import (
	"slices"
	"sync"

	. "github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// pg_blocking_pids reports the sessions holding the advisory lock a
// session waits for: the only locks zproxy's sessions wait on (row locks
// never wait, a conflict is found at COMMIT; README, Transactions). The
// waits are this proxy's own (advisoryWaits); the holders come from the
// lock table, the store's where proxies share it, so a session waiting on
// another proxy is not seen waiting (its blockers are an empty array).

// advisoryWait is the lock a session waits for.
type advisoryWait struct {
	key    int64
	shared bool
}

// advisoryWaits maps a waiting session's process ID to its wait.
var advisoryWaits sync.Map

// waitForAdvisory takes an advisory lock for the session of e, recording
// the wait while it lasts.
func waitForAdvisory(e *Env, l AdvisoryLockTable, key int64, shared bool) error {
	pid := uint64(e.Sess.PID())
	if ok, err := l.TryLock(e.Ctx, pid, key, shared); err != nil || ok {
		return err
	}
	advisoryWaits.Store(pid, advisoryWait{key: key, shared: shared})
	defer advisoryWaits.Delete(pid)
	return l.Lock(e.Ctx, pid, key, shared)
}

// blockingPIDs are the sessions holding, in a conflicting mode, the lock
// session pid waits for (none when it waits for nothing).
func (e *Env) blockingPIDs(pid uint64) ([]int64, error) {
	v, ok := advisoryWaits.Load(pid)
	if !ok || e.Sess == nil || e.Sess.Locks() == nil {
		return nil, nil
	}
	w := v.(advisoryWait)
	held, err := e.Sess.Locks().Held(e.Ctx)
	if err != nil {
		return nil, err
	}
	var out []int64
	for _, h := range held {
		// Shared holds block an exclusive request only; exclusive ones
		// block every request.
		if h.Key == w.key && h.Owner != pid && (!h.Shared || !w.shared) && !slices.Contains(out, int64(h.Owner)) {
			out = append(out, int64(h.Owner))
		}
	}
	slices.Sort(out)
	return out, nil
}

func registerBlocking() {
	Register("pg_blocking_pids", fn("", []Param{intP}, sqltypes.ArrayOf(sqltypes.TypeInt4), Volatile, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		e, err := needEnv(ctx)
		if err != nil {
			return sqltypes.Null, err
		}
		pids, err := e.blockingPIDs(uint64(uint32(a[0].I)))
		if err != nil {
			return sqltypes.Null, err
		}
		elems := make([]sqltypes.Value, len(pids))
		for i, p := range pids {
			elems[i] = intV(p)
		}
		return sqltypes.NewArray1(sqltypes.TypeInt4, elems), nil
	}))
}

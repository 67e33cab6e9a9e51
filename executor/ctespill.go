package executor

import (
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// A shared WITH query keeps its rows for all its scans. Past work_mem they
// move to a spill run, which every scan reads from its first row (as
// PostgreSQL's tuplestore spills to a temporary file); the run lives as
// long as the statement (releaseCTEs). A recursive query's rounds are kept
// the same way (recursiveRows), each for as long as it is the work table.

// add keeps a row of the query (the caller's copy).
func (st *cteState) add(ec *execCtx, row []sqltypes.Value) error {
	if st.run != nil {
		return st.run.Add(row)
	}
	size := rowSize(row)
	if err := st.mem.grow(size); err != nil {
		if !ec.canSpill(err) {
			return err
		}
		run, err := ec.writeRun(append(st.rows, row))
		if err != nil {
			return err
		}
		st.run, st.rows = run, nil
		st.mem.release(st.held)
		st.held = 0
		return nil
	}
	st.held += size
	st.rows = append(st.rows, row)
	return nil
}

// scan reads the query's rows from the first.
func (st *cteState) scan() (Rows, error) {
	if st.run != nil {
		return newRunRows(st.run, false)
	}
	return &rowsetRows{rows: st.rows}, nil
}

// len is how many rows the query has kept.
func (st *cteState) len() int64 {
	if st.run != nil {
		return st.run.Len()
	}
	return int64(len(st.rows))
}

// release frees what the query's rows hold.
func (st *cteState) release() {
	if st.run != nil {
		st.run.Release()
		st.run = nil
	}
	if st.mem != nil {
		st.mem.release(st.held)
	}
	st.rows, st.held = nil, 0
}

// releaseCTEs frees what the statement's WITH queries hold.
func (ec *execCtx) releaseCTEs() {
	if ec.ctes == nil {
		return
	}
	for _, st := range ec.ctes.shared {
		st.release()
	}
}

// statementRows is a statement's result: closing it frees what the
// statement holds beyond its operators.
type statementRows struct {
	Rows
	ec *execCtx
}

func (s *statementRows) Close() {
	s.Rows.Close()
	s.ec.finish()
}

// finish ends the statement: it frees what its WITH queries hold and
// removes every spill run it still has, so no spill file outlives the
// statement whether it finished, failed, was cancelled or lost its client
// (each of which closes its rows).
func (ec *execCtx) finish() {
	ec.releaseCTEs()
	if ec.spill != nil {
		ec.spill.quota.Close()
	}
	if a := ec.alloc; a != nil && a.snap != nil {
		a.snap.Release()
		a.snap = nil
	}
}

package planner

import (
	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

func bindSequence(snap *catalog.Snapshot, st *parser.SequenceStatement) (ir.Statement, error) {
	switch st.Kind {
	case "create":
		seq, err := ir.NewSequence(st.Names[0], st.Options)
		if err != nil {
			return nil, err
		}
		seq.Temp = st.Temp
		if seq.OwnedBy, err = ownerKey(snap, seq.OwnedBy); err != nil {
			return nil, err
		}
		return &ir.CreateSequence{Seq: seq, IfNotExists: st.IfNotExists}, nil
	case "alter":
		opts := st.Options
		var err error
		if opts.OwnedBy, err = ownerKey(snap, opts.OwnedBy); err != nil {
			return nil, err
		}
		return &ir.AlterSequence{Name: st.Names[0], IfExists: st.IfExists, Options: opts, RenameTo: st.RenameTo, SetSchema: st.SetSchema}, nil
	}
	return &ir.DropSequence{Names: st.Names, IfExists: st.IfExists, Cascade: st.Cascade}, nil
}

// ownerKey checks OWNED BY table.column, the table named as written
// (public.t, s.t, or a name the path finds), and returns it as the
// sequence keeps it: the table's key, then the column.
func ownerKey(snap *catalog.Snapshot, owned string) (string, error) {
	if owned == "" || owned == "none" {
		return owned, nil
	}
	tbl, col, _ := catalog.SplitOwnedBy(owned)
	t, err := snap.Table(tbl)
	if err != nil {
		return "", err
	}
	if t.ColumnIndex(col) < 0 {
		return "", pgerr.New(pgerr.UndefinedColumn, "column %q of relation %q does not exist", col, tbl)
	}
	return t.Name + "." + col, nil
}

package parser

import (
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// AnalyzeStatement is ANALYZE [VERBOSE] [(options)] [table [(column, ...)],
// ...] and VACUUM [options] [table ...], parsed by the front end (TiDB's
// ANALYZE TABLE is MySQL's and TiDB has no VACUUM).
type AnalyzeStatement struct {
	// Vacuum is set for VACUUM; Analyze tells whether it asked for ANALYZE
	// (always true for the ANALYZE statement).
	Vacuum  bool
	Analyze bool
	Verbose bool
	// Full and Freeze are VACUUM's options that rewrite or freeze rows.
	Full, Freeze bool
	// Tables are the tables named (none: every table).
	Tables []AnalyzeTarget
}

// AnalyzeTarget is one table of ANALYZE, with the columns it names.
type AnalyzeTarget struct {
	Name    string
	Columns []string
	// Schema is pg_catalog or information_schema for a system catalog
	// named so (vacuumdb analyzes pg_catalog's tables), else "".
	Schema string
	// Pos is the byte offset of the name, for errors.
	Pos int
}

func (r *rewriter) analyzeStmt() (*AnalyzeStatement, error) {
	st := &AnalyzeStatement{}
	switch {
	case r.peek(0, "analyze"), r.peek(0, "analyse"):
		st.Analyze = true
	case r.peek(0, "vacuum"):
		st.Vacuum = true
	default:
		return nil, nil
	}
	name := strings.ToUpper(r.toks[0].val)
	k := 1
	if r.peek(k, "(") {
		next, err := r.analyzeOptions(st, k+1, name)
		if err != nil {
			return nil, err
		}
		k = next
	} else {
		// The old spelling: VACUUM [FULL] [FREEZE] [VERBOSE] [ANALYZE].
		for {
			switch {
			case st.Vacuum && r.peek(k, "full"):
				st.Full = true
			case st.Vacuum && r.peek(k, "freeze"):
				st.Freeze = true
			case r.peek(k, "verbose"):
				st.Verbose = true
			case st.Vacuum && (r.peek(k, "analyze") || r.peek(k, "analyse")):
				st.Analyze = true
			default:
				goto tables
			}
			k++
		}
	}
tables:
	for k < len(r.toks) {
		pos := r.pos(k)
		schema := ""
		if (r.peek(k, "pg_catalog") || r.peek(k, "information_schema")) && r.peek(k+1, ".") {
			schema = r.toks[k].val
			k += 2
		}
		tbl, next, err := r.relationName(k)
		if err != nil {
			return nil, err
		}
		target := AnalyzeTarget{Name: tbl, Pos: pos, Schema: schema}
		k = next
		if r.peek(k, "(") {
			k++
			for {
				if k >= len(r.toks) || r.toks[k].kind != tkIdent && r.toks[k].kind != tkQIdent {
					return nil, r.syntaxErrorAt(k)
				}
				target.Columns = append(target.Columns, r.toks[k].val)
				k++
				if r.peek(k, ")") {
					k++
					break
				}
				if !r.peek(k, ",") {
					return nil, r.syntaxErrorAt(k)
				}
				k++
			}
		}
		st.Tables = append(st.Tables, target)
		if k == len(r.toks) {
			break
		}
		if !r.peek(k, ",") {
			return nil, r.syntaxErrorAt(k)
		}
		k++
	}
	return st, nil
}

// analyzeOptions reads a parenthesized option list from token k (after the
// opening parenthesis) and returns the token after the closing one.
func (r *rewriter) analyzeOptions(st *AnalyzeStatement, k int, stmt string) (int, error) {
	for {
		if k >= len(r.toks) || r.toks[k].kind != tkIdent {
			return k, r.syntaxErrorAt(k)
		}
		opt, at := r.toks[k].val, k
		k++
		val := -1 // the token of the option's value, if any
		if k < len(r.toks) && !r.peek(k, ",") && !r.peek(k, ")") {
			val = k
			k++
		}
		maintenance := opt == "disable_page_skipping" || opt == "index_cleanup" || opt == "process_toast" ||
			opt == "truncate" || opt == "parallel"
		if st.Vacuum && maintenance {
			// Page-level maintenance the stores do themselves.
		} else {
			on := true
			if val >= 0 {
				switch strings.ToLower(r.toks[val].val) {
				case "true", "on", "1":
				case "false", "off", "0":
					on = false
				default:
					return k, pgerr.New(pgerr.SyntaxError, "%s requires a Boolean value", opt).WithPosition(r.pos(val))
				}
			}
			switch {
			case opt == "verbose":
				st.Verbose = on
			case opt == "skip_locked":
				// ANALYZE never waits for a lock, so there is nothing to skip.
			case st.Vacuum && (opt == "analyze" || opt == "analyse"):
				st.Analyze = on
			case st.Vacuum && opt == "full":
				st.Full = on
			case st.Vacuum && opt == "freeze":
				st.Freeze = on
			default:
				return k, pgerr.New(pgerr.SyntaxError, "unrecognized %s option \"%s\"", stmt, opt).WithPosition(r.pos(at))
			}
		}
		if r.peek(k, ")") {
			return k + 1, nil
		}
		if !r.peek(k, ",") {
			return k, r.syntaxErrorAt(k)
		}
		k++
	}
}

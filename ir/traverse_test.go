package ir

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// marker is an expression told apart by its value, to follow where a
// traversal puts it.
func marker(i int) Expr { return &Const{V: sqltypes.NewInt(int64(i)), Typ: sqltypes.TypeInt8} }

// sampleRels returns one relation of every kind, each expression slot
// filled with a distinct marker, and every kind's name.
func sampleRels() []Rel {
	n := 0
	m := func() Expr { n++; return marker(n) }
	tb := &catalog.Table{Name: "t", Columns: []catalog.Column{{Name: "a", Type: sqltypes.TypeInt8}}}
	leaf := NewScan(tb, "t")
	cte := &CTE{Name: "w", Plan: leaf, Cols: leaf.Columns()}
	agg := func() AggCall {
		return AggCall{Func: "sum", Args: []Expr{m(), m()}, Filter: m(), OrderBy: []SortKeyExpr{{E: m()}}, Typ: sqltypes.TypeInt8}
	}
	a1 := agg()
	return []Rel{
		leaf,
		NewVirtual(tb),
		&Values{Rows: [][]Expr{{m(), m()}, {m(), m()}}, Cols: []Column{{Name: "x"}, {Name: "y"}}},
		&TableFunc{Name: "generate_series", Args: []Expr{m(), m()}},
		&Filter{Input: leaf, Pred: m()},
		&Project{Input: leaf, Exprs: []Expr{m(), m()}},
		NewJoin(InnerJoin, leaf, NewVirtual(tb), m()),
		&Aggregate{Input: leaf, GroupBy: []Expr{m()}, Aggs: []AggCall{agg(), agg()}},
		&Window{Input: leaf, Calls: []WindowCall{
			{Func: "rank", Args: []Expr{m()}, PartitionBy: []Expr{m()}, OrderBy: []SortKeyExpr{{E: m()}}, Frame: WindowFrame{Start: FrameBound{Offset: m()}, End: FrameBound{Offset: m()}}},
			{Func: "sum", Agg: &a1, Frame: WindowFrame{Start: FrameBound{Offset: m()}}},
		}},
		NewProjectSet(leaf, []SetCall{{Name: "unnest", Args: []Expr{m()}}, {Name: "f", Args: []Expr{m(), m()}}}),
		&Sort{Input: leaf, Keys: []SortKey{{Col: 0}}},
		&Limit{Input: leaf, Count: m(), Offset: m()},
		&Distinct{Input: leaf},
		&SetOp{Op: Union, Left: leaf, Right: NewVirtual(tb), Cols: leaf.Columns()},
		NewCTEScan(cte, "w"),
		&RecursiveUnion{Anchor: leaf, Recursive: NewWorkTable(cte), CTE: cte},
		NewWorkTable(cte),
	}
}

func kindName(x any) string { return reflect.TypeOf(x).Elem().Name() }

// TestEveryRelKindSampled parses the package for the types with an Inputs
// method: a new relation kind must join sampleRels, so the traversal tests
// below cover it.
func TestEveryRelKindSampled(t *testing.T) {
	declared := typesWithMethod(t, "Inputs")
	sampled := map[string]bool{}
	for _, r := range sampleRels() {
		sampled[kindName(r)] = true
	}
	var missing []string
	for k := range declared {
		if !sampled[k] {
			missing = append(missing, k)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 || len(declared) == 0 {
		t.Errorf("relation kinds without a sample in sampleRels: %v (declared %d)", missing, len(declared))
	}
}

// TestRelTraversal: Expressions lists every slot in a fixed order and
// WithExpressions puts each replacement back in its slot; WithInputs
// likewise; neither changes the original.
func TestRelTraversal(t *testing.T) {
	for _, r := range sampleRels() {
		name := kindName(r)
		es := r.Expressions()
		seen := map[string]bool{}
		for _, e := range es {
			if e == nil {
				continue
			}
			if seen[e.String()] {
				t.Errorf("%s: expression %s listed twice", name, e)
			}
			seen[e.String()] = true
		}
		repl := make([]Expr, len(es))
		for i := range es {
			repl[i] = marker(1000 + i)
		}
		r2 := r.WithExpressions(repl)
		if got := r2.Expressions(); !sameExprs(got, repl) {
			t.Errorf("%s: WithExpressions then Expressions = %v, want %v", name, got, repl)
		}
		if got := r.Expressions(); !sameExprs(got, es) {
			t.Errorf("%s: WithExpressions changed the original: %v, was %v", name, got, es)
		}
		in := r.Inputs()
		newIn := make([]Rel, len(in))
		for i := range in {
			newIn[i] = &Filter{Input: in[i], Pred: marker(2000 + i)}
		}
		r3 := r.WithInputs(newIn)
		if got := r3.Inputs(); len(in) > 0 && !reflect.DeepEqual(got, newIn) {
			t.Errorf("%s: WithInputs then Inputs = %v, want %v", name, got, newIn)
		}
		if len(in) > 0 && !reflect.DeepEqual(r.Inputs(), in) {
			t.Errorf("%s: WithInputs changed the original", name)
		}
		if got := r3.Expressions(); !sameExprs(got, es) {
			t.Errorf("%s: WithInputs changed the expressions: %v, want %v", name, got, es)
		}
	}
}

// sameExprs compares two expression lists, an empty one equal to nil.
func sameExprs(a, b []Expr) bool { return len(a) == 0 && len(b) == 0 || reflect.DeepEqual(a, b) }

// TestVisitExprsSeesEverySlot: VisitExprs reaches every expression a
// relation lists, and the plans of subqueries inside them one level down.
func TestVisitExprsSeesEverySlot(t *testing.T) {
	for _, r := range sampleRels() {
		want := map[string]bool{}
		for _, e := range r.Expressions() {
			if e != nil {
				want[e.String()] = true
			}
		}
		got := map[string]bool{}
		VisitExprs(r, func(e Expr, level int) { got[e.String()] = true })
		for e := range want {
			if !got[e] {
				t.Errorf("%s: VisitExprs missed %s", kindName(r), e)
			}
		}
	}
	tb := &catalog.Table{Name: "t", Columns: []catalog.Column{{Name: "a", Type: sqltypes.TypeInt8}}}
	inner := &Filter{Input: NewScan(tb, "s"), Pred: marker(7)}
	outer := &Filter{Input: NewScan(tb, "t"), Pred: &Subquery{Kind: ExistsSubquery, Plan: inner}}
	levels := map[string]int{}
	VisitExprs(outer, func(e Expr, level int) { levels[e.String()] = level })
	if l, ok := levels["7"]; !ok || l != 1 {
		t.Errorf("subquery's filter visited at level %d (seen %v), want 1", l, ok)
	}
}

// TestExprChildren: WithChildren puts each child back where
// AppendChildren listed it, for every kind with children.
func TestExprChildren(t *testing.T) {
	a, b, c := marker(1), marker(2), marker(3)
	exprs := []Expr{
		&Binary{Op: OpAdd, L: a, R: b},
		&Not{E: a},
		&Neg{E: a},
		&IsNull{E: a, Neg: true},
		NewInList(a, []Expr{b, c}, false),
		&Like{E: a, Pattern: b},
		&Cast{E: a, To: sqltypes.TypeText},
		&Func{Name: "f", Args: []Expr{a, b, c}},
		&Subquery{Kind: AnySubquery, Left: a},
		&Subquery{Kind: ExistsSubquery},
		&RowExpr{Items: []Expr{a, b}},
		&ColRef{Index: 1}, a, &Param{N: 1}, &OuterRef{Depth: 1},
	}
	for _, e := range exprs {
		kids := e.AppendChildren(nil)
		repl := make([]Expr, len(kids))
		for i := range kids {
			repl[i] = marker(100 + i)
		}
		got := e.WithChildren(repl).AppendChildren(nil)
		if len(kids) > 0 && !reflect.DeepEqual(got, repl) {
			t.Errorf("%T: WithChildren then AppendChildren = %v, want %v", e, got, repl)
		}
		if !reflect.DeepEqual(e.AppendChildren(nil), kids) {
			t.Errorf("%T: WithChildren changed the original", e)
		}
	}
}

// typesWithMethod parses the package (tests aside) for the types with a
// pointer-receiver method of that name.
func typesWithMethod(t *testing.T, method string) map[string]bool {
	t.Helper()
	files, _ := filepath.Glob("*.go")
	fs := token.NewFileSet()
	declared := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fs, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range af.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil && fd.Name.Name == method {
				if st, ok := fd.Recv.List[0].Type.(*ast.StarExpr); ok {
					declared[st.X.(*ast.Ident).Name] = true
				}
			}
		}
	}
	return declared
}

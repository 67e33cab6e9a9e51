package builtins

import (
	"strconv"
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/internal/tsearch"
)

// Full-text search's functions and operators over tsvector and tsquery.
// The parser, dictionaries, matching and ranking are package tsearch's;
// the values are sqltypes'. The one-argument forms read the session's
// default_text_search_config, so they are stable; those naming their
// configuration are immutable.

// DefaultTSConfig is the configuration default_text_search_config names.
func DefaultTSConfig(ctx *Context) (*tsearch.Config, error) {
	name := "pg_catalog.simple"
	if ctx != nil && ctx.Settings != nil {
		if v, ok := ctx.Settings("default_text_search_config"); ok && v != "" {
			name = v
		}
	}
	r, err := sqltypes.ParseRegConfig(name)
	if err != nil {
		return nil, err
	}
	return tsearch.ConfigByOID(uint32(r.I))
}

// configArgs splits a call's leading regconfig argument (when the
// overload has one) from the rest, or takes default_text_search_config.
func configArgs(ctx *Context, a []sqltypes.Value, withCfg bool) (*tsearch.Config, []sqltypes.Value, error) {
	if withCfg {
		c, err := tsearch.ConfigByOID(uint32(a[0].I))
		return c, a[1:], err
	}
	c, err := DefaultTSConfig(ctx)
	return c, a, err
}

func tsvectorV(v *sqltypes.TSVectorValue) sqltypes.Value { return sqltypes.NewTSVector(v) }
func tsqueryV(q *sqltypes.TSQueryValue) sqltypes.Value   { return sqltypes.NewTSQuery(q) }

// textElems returns the non-NULL text elements of an array, failing on a
// NULL with msg when msg is set.
func textElems(a *sqltypes.ArrayValue, msg string) ([]string, error) {
	out := make([]string, 0, len(a.Elems))
	for _, e := range a.Elems {
		if e.IsNull() {
			if msg != "" {
				return nil, pgerr.New(pgerr.NullValueNotAllowed, "%s", msg)
			}
			continue
		}
		out = append(out, e.S)
	}
	return out, nil
}

func wordSet(words []string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// rankWeights reads ts_rank's weights array (getWeights): four reals,
// negative ones meaning the default, none above 1.
func rankWeights(a *sqltypes.ArrayValue) ([4]float32, error) {
	w := tsearch.DefaultWeights
	if len(a.Dims) != 1 {
		return w, pgerr.New(pgerr.ArraySubscriptError, "array of weight must be one-dimensional")
	}
	if len(a.Elems) < 4 {
		return w, pgerr.New(pgerr.ArraySubscriptError, "array of weight is too short")
	}
	for i := 0; i < 4; i++ {
		e := a.Elems[i]
		if e.IsNull() {
			return w, pgerr.New(pgerr.NullValueNotAllowed, "array of weight must not contain nulls")
		}
		f := float32(e.AsFloat())
		if f > 1.0 {
			return w, pgerr.New(pgerr.InvalidParameterValue, "weight out of range")
		}
		if f >= 0 {
			w[i] = f
		}
	}
	return w, nil
}

func init() {
	tv := T(sqltypes.TypeTSVector)
	tq := T(sqltypes.TypeTSQuery)
	text := T(sqltypes.TypeText)
	cfg := T(sqltypes.TypeRegConfig)
	texts := T(sqltypes.ArrayOf(sqltypes.TypeText))
	int4 := T(sqltypes.TypeInt4)
	char := T(sqltypes.TypeChar)
	reals := T(sqltypes.ArrayOf(sqltypes.TypeFloat4))
	tTV, tTQ := sqltypes.TypeTSVector, sqltypes.TypeTSQuery
	fn := func(params []Param, result sqltypes.Type, vol Volatility, doc string, f func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error)) Overload {
		return Overload{Params: params, Result: Returns(result), Volatility: vol, Doc: doc, Eval: f}
	}

	// withConfig makes the two overloads of a function of text: with a
	// regconfig first (immutable) and without (stable: it reads
	// default_text_search_config).
	withConfig := func(result sqltypes.Type, doc string, f func(c *tsearch.Config, s string) (sqltypes.Value, error)) []Overload {
		var out []Overload
		for _, withCfg := range []bool{true, false} {
			params, vol, d := []Param{cfg, text}, Immutable, doc+", by the configuration"
			if !withCfg {
				params, vol, d = []Param{text}, Stable, doc+", by default_text_search_config"
			}
			out = append(out, fn(params, result, vol, d, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				c, a, err := configArgs(ctx, a, withCfg)
				if err != nil {
					return sqltypes.Null, err
				}
				return f(c, a[0].S)
			}))
		}
		return out
	}
	Register("to_tsvector", withConfig(tTV, "the text's lexemes with their positions", func(c *tsearch.Config, s string) (sqltypes.Value, error) {
		v, err := c.ToTSVector(s)
		if err != nil {
			return sqltypes.Null, err
		}
		return tsvectorV(v), nil
	})...)
	queryMaker := func(name string, kind tsearch.QueryKind, doc string) {
		Register(name, withConfig(tTQ, doc, func(c *tsearch.Config, s string) (sqltypes.Value, error) {
			q, err := c.ToTSQuery(s, kind)
			if err != nil {
				return sqltypes.Null, err
			}
			return tsqueryV(q), nil
		})...)
	}
	queryMaker("to_tsquery", tsearch.ToTSQuery, "a tsquery of tsquery syntax, its operands normalized")
	queryMaker("plainto_tsquery", tsearch.PlainToTSQuery, "a tsquery of the text's words joined by &")
	queryMaker("phraseto_tsquery", tsearch.PhraseToTSQuery, "a tsquery of the text's words joined by <->")
	queryMaker("websearch_to_tsquery", tsearch.WebsearchToTSQuery, "a tsquery of web search syntax")

	Register("get_current_ts_config", fn(nil, sqltypes.TypeRegConfig, Stable, "default_text_search_config's configuration", func(ctx *Context, _ []sqltypes.Value) (sqltypes.Value, error) {
		c, err := DefaultTSConfig(ctx)
		if err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewReg(c.OID, c.Name), nil
	}))

	// Matching: tsvector @@ tsquery and its commutator, text @@ tsquery
	// and text @@ text (the text through default_text_search_config,
	// the query of text through plainto_tsquery).
	matchVQ := func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.NewBool(tsearch.Match(a.TSVector(), b.TSQuery())), nil
	}
	matchQV := func(ctx *Context, a, b sqltypes.Value) (sqltypes.Value, error) { return matchVQ(ctx, b, a) }
	matchTQ := func(ctx *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
		c, err := DefaultTSConfig(ctx)
		if err != nil {
			return sqltypes.Null, err
		}
		v, err := c.ToTSVector(a.S)
		if err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewBool(tsearch.Match(v, b.TSQuery())), nil
	}
	matchTT := func(ctx *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
		c, err := DefaultTSConfig(ctx)
		if err != nil {
			return sqltypes.Null, err
		}
		q, err := c.ToTSQuery(b.S, tsearch.PlainToTSQuery)
		if err != nil {
			return sqltypes.Null, err
		}
		v, err := c.ToTSVector(a.S)
		if err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewBool(tsearch.Match(v, q)), nil
	}
	binary := func(params []Param, result sqltypes.Type, vol Volatility, doc string, f func(ctx *Context, a, b sqltypes.Value) (sqltypes.Value, error)) Overload {
		return Overload{Params: params, Result: Returns(result), Volatility: vol, Doc: doc, Binary: f,
			Eval: func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) { return f(ctx, a[0], a[1]) }}
	}
	vq := binary([]Param{tv, tq}, sqltypes.TypeBool, Immutable, "whether the tsvector matches the tsquery", matchVQ)
	qv := binary([]Param{tq, tv}, sqltypes.TypeBool, Immutable, "whether the tsvector matches the tsquery", matchQV)
	// @@@ is @@'s deprecated spelling between a tsvector and a tsquery,
	// which PostgreSQL keeps (operators 3660 and 3661): the same functions.
	RegisterOperator("@@@", vq)
	RegisterOperator("@@@", qv)
	for _, o := range []struct {
		op, fn string
		ov     Overload
	}{
		{"@@", "ts_match_vq", vq},
		{"@@", "ts_match_qv", qv},
		{"@@", "ts_match_tq", binary([]Param{text, tq}, sqltypes.TypeBool, Stable, "whether to_tsvector(text) matches the tsquery", matchTQ)},
		{"@@", "ts_match_tt", binary([]Param{text, text}, sqltypes.TypeBool, Stable, "whether to_tsvector(text) matches plainto_tsquery(text)", matchTT)},
		{"||", "tsvector_concat", binary([]Param{tv, tv}, tTV, Immutable, "the tsvectors merged, the right's positions after the left's", func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			return tsvectorV(tsearch.Concat(a.TSVector(), b.TSVector())), nil
		})},
		{"&&", "tsquery_and", binary([]Param{tq, tq}, tTQ, Immutable, "both tsqueries (AND)", func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			return tsqueryV(tsearch.Join(a.TSQuery(), b.TSQuery(), sqltypes.TSAnd, 0)), nil
		})},
		{"||", "tsquery_or", binary([]Param{tq, tq}, tTQ, Immutable, "either tsquery (OR)", func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			return tsqueryV(tsearch.Join(a.TSQuery(), b.TSQuery(), sqltypes.TSOr, 0)), nil
		})},
		{"<->", "tsquery_phrase", binary([]Param{tq, tq}, tTQ, Immutable, "the second tsquery right after the first (<->)", func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			return tsqueryV(tsearch.Join(a.TSQuery(), b.TSQuery(), sqltypes.TSPhrase, 1)), nil
		})},
		{"@>", "tsq_mcontains", binary([]Param{tq, tq}, sqltypes.TypeBool, Immutable, "whether the first tsquery holds the second's lexemes", func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewBool(tsearch.Contains(a.TSQuery(), b.TSQuery())), nil
		})},
		{"<@", "tsq_mcontained", binary([]Param{tq, tq}, sqltypes.TypeBool, Immutable, "whether the second tsquery holds the first's lexemes", func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewBool(tsearch.Contains(b.TSQuery(), a.TSQuery())), nil
		})},
	} {
		RegisterOperator(o.op, o.ov)
		Register(o.fn, o.ov)
	}
	Register("tsquery_phrase", fn([]Param{tq, tq, int4}, tTQ, Immutable, "the second tsquery the given distance after the first", func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		if a[2].I < 0 || a[2].I > sqltypes.TSMaxEntryPos {
			return sqltypes.Null, pgerr.New(pgerr.InvalidParameterValue, "distance in phrase operator must be an integer value between zero and %d inclusive", sqltypes.TSMaxEntryPos)
		}
		return tsqueryV(tsearch.Join(a[0].TSQuery(), a[1].TSQuery(), sqltypes.TSPhrase, int(a[2].I))), nil
	}))
	Register("tsquery_not", fn([]Param{tq}, tTQ, Immutable, "the tsquery negated (!!)", func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		return tsqueryV(tsearch.Not(a[0].TSQuery())), nil
	}))

	weightArg := func(v sqltypes.Value) (int, error) {
		c := byte(0)
		if v.S != "" {
			c = v.S[0]
		}
		w, ok := tsearch.WeightOf(c)
		if !ok {
			return 0, pgerr.Raised("unrecognized weight: %d", c)
		}
		return w, nil
	}
	Register("setweight",
		fn([]Param{tv, char}, tTV, Immutable, "the tsvector with every position given the weight", func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			w, err := weightArg(a[1])
			if err != nil {
				return sqltypes.Null, err
			}
			return tsvectorV(tsearch.SetWeight(a[0].TSVector(), w, nil)), nil
		}),
		fn([]Param{tv, char, texts}, tTV, Immutable, "the tsvector with the listed lexemes' positions given the weight", func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			w, err := weightArg(a[1])
			if err != nil {
				return sqltypes.Null, err
			}
			words, err := textElems(a[2].Array(), "lexeme array may not contain nulls")
			if err != nil {
				return sqltypes.Null, err
			}
			return tsvectorV(tsearch.SetWeight(a[0].TSVector(), w, wordSet(words))), nil
		}))
	Register("strip", fn([]Param{tv}, tTV, Immutable, "the tsvector without positions", func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		return tsvectorV(tsearch.Strip(a[0].TSVector())), nil
	}))
	Register("length", fn([]Param{tv}, sqltypes.TypeInt4, Immutable, "the number of lexemes", func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.NewInt(int64(len(a[0].TSVector().Lexemes))), nil
	}))
	Register("numnode", fn([]Param{tq}, sqltypes.TypeInt4, Immutable, "the number of lexemes and operators", func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.NewInt(int64(tsearch.NumNode(a[0].TSQuery()))), nil
	}))
	Register("querytree", fn([]Param{tq}, sqltypes.TypeText, Immutable, "the part of the tsquery an index can answer", func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.NewText(tsearch.QueryTree(a[0].TSQuery())), nil
	}))
	Register("ts_delete",
		fn([]Param{tv, text}, tTV, Immutable, "the tsvector without the lexeme", func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return tsvectorV(tsearch.Delete(a[0].TSVector(), map[string]bool{a[1].S: true})), nil
		}),
		fn([]Param{tv, texts}, tTV, Immutable, "the tsvector without the lexemes", func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			words, err := textElems(a[1].Array(), "") // NULLs are skipped
			if err != nil {
				return sqltypes.Null, err
			}
			return tsvectorV(tsearch.Delete(a[0].TSVector(), wordSet(words))), nil
		}))
	Register("ts_filter", fn([]Param{tv, T(sqltypes.ArrayOf(sqltypes.TypeChar))}, tTV, Immutable, "the tsvector's positions of the given weights", func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		var ws [4]bool
		for _, e := range a[1].Array().Elems {
			if e.IsNull() {
				return sqltypes.Null, pgerr.New(pgerr.NullValueNotAllowed, "weight array may not contain nulls")
			}
			c := byte(0)
			if e.S != "" {
				c = e.S[0]
			}
			w, ok := tsearch.WeightOf(c)
			if !ok {
				return sqltypes.Null, pgerr.New(pgerr.InvalidParameterValue, "unrecognized weight: \"%c\"", c)
			}
			ws[w] = true
		}
		return tsvectorV(tsearch.Filter(a[0].TSVector(), ws)), nil
	}))
	Register("tsvector_to_array", fn([]Param{tv}, sqltypes.ArrayOf(sqltypes.TypeText), Immutable, "the tsvector's lexemes", func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		return wordsArray(a[0].TSVector().Words()), nil
	}))
	Register("array_to_tsvector", fn([]Param{texts}, tTV, Immutable, "a tsvector of the lexemes, without positions", func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		words, err := textElems(a[0].Array(), "lexeme array may not contain nulls")
		if err != nil {
			return sqltypes.Null, err
		}
		v, err := tsearch.FromWords(words)
		if err != nil {
			return sqltypes.Null, err
		}
		return tsvectorV(v), nil
	}))
	// unnest(tsvector) is bound by the planner beside unnest(anyarray)
	// (planner/tablefunc.go), which it must not shadow in the registry.
	RegisterPlannerBound("unnest", TSVectorUnnest)

	// Ranking.
	rank := func(name string, f func(w [4]float32, v *sqltypes.TSVectorValue, q *sqltypes.TSQueryValue, method int) float32, doc string) {
		eval := func(weights, norm bool) func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				w := tsearch.DefaultWeights
				if weights {
					var err error
					if w, err = rankWeights(a[0].Array()); err != nil {
						return sqltypes.Null, err
					}
					a = a[1:]
				}
				method := 0
				if norm {
					method = int(a[2].I)
				}
				return float4V(f(w, a[0].TSVector(), a[1].TSQuery(), method)), nil
			}
		}
		Register(name,
			fn([]Param{reals, tv, tq, int4}, sqltypes.TypeFloat4, Immutable, doc+", with weights and normalization", eval(true, true)),
			fn([]Param{reals, tv, tq}, sqltypes.TypeFloat4, Immutable, doc+", with weights", eval(true, false)),
			fn([]Param{tv, tq, int4}, sqltypes.TypeFloat4, Immutable, doc+", with normalization", eval(false, true)),
			fn([]Param{tv, tq}, sqltypes.TypeFloat4, Immutable, doc, eval(false, false)))
	}
	rank("ts_rank", tsearch.Rank, "how well the tsvector matches the tsquery, by its lexemes' frequency")
	rank("ts_rank_cd", tsearch.RankCD, "how well the tsvector matches the tsquery, by cover density")

	Register("ts_rewrite",
		fn([]Param{tq, tq, tq}, tTQ, Immutable, "the tsquery with each occurrence of the second replaced by the third", func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return tsqueryV(tsearch.Rewrite(a[0].TSQuery(), a[1].TSQuery(), a[2].TSQuery())), nil
		}),
		fn([]Param{tq, text}, tTQ, Volatile, "the tsquery rewritten by the (target, substitute) pairs a query returns", tsRewriteQuery))

	Register("ts_lexize", fn([]Param{T(sqltypes.TypeRegDictionary), text}, sqltypes.ArrayOf(sqltypes.TypeText), Immutable, "the word through the dictionary: its lexemes, empty for a stop word", func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		dict, ok := sqltypes.TSDictionaryByOID(uint32(a[0].I))
		if !ok {
			return sqltypes.Null, pgerr.Raised("cache lookup failed for text search dictionary %d", a[0].I)
		}
		d, err := tsearch.DictionaryByName(dict.Name)
		if err != nil {
			return sqltypes.Null, err
		}
		return wordsArray(d.Lexize(a[1].S)), nil
	}))
}

// wordsArray is a one-dimensional text[] of the strings.
func wordsArray(words []string) sqltypes.Value {
	elems := make([]sqltypes.Value, len(words))
	for i, w := range words {
		elems[i] = sqltypes.NewText(w)
	}
	a := &sqltypes.ArrayValue{Elem: sqltypes.TypeText, Elems: elems}
	if len(elems) > 0 {
		a.Dims = []int32{int32(len(elems))}
	}
	return sqltypes.NewArray(a)
}

// The kinds of json values jsonb_to_tsvector's filter picks.
const (
	jsonFlagString = 1 << iota
	jsonFlagNumeric
	jsonFlagBoolean
	jsonFlagKey
	jsonFlagAll = jsonFlagString | jsonFlagNumeric | jsonFlagBoolean | jsonFlagKey
)

// jsonFilter reads jsonb_to_tsvector's filter (parse_jsonb_index_flags):
// a string or an array of strings naming the kinds of values to index.
func jsonFilter(j *sqltypes.JSONValue) (int, error) {
	hint := `Possible values are: "string", "numeric", "boolean", "key", and "all".`
	flag := func(v *sqltypes.JSONValue) (int, error) {
		if v.Kind != sqltypes.JSONString {
			return 0, pgerr.New(pgerr.InvalidParameterValue, "flag array element is not a string").WithHint("%s", hint)
		}
		switch strings.ToLower(v.Str) {
		case "string":
			return jsonFlagString, nil
		case "numeric":
			return jsonFlagNumeric, nil
		case "boolean":
			return jsonFlagBoolean, nil
		case "key":
			return jsonFlagKey, nil
		case "all":
			return jsonFlagAll, nil
		}
		return 0, pgerr.New(pgerr.InvalidParameterValue, "wrong flag in flag array: \"%s\"", v.Str).WithHint("%s", hint)
	}
	switch j.Kind {
	case sqltypes.JSONString:
		return flag(j)
	case sqltypes.JSONArray:
		flags := 0
		for i := range j.Elems {
			f, err := flag(&j.Elems[i])
			if err != nil {
				return 0, err
			}
			flags |= f
		}
		return flags, nil
	}
	return 0, pgerr.New(pgerr.InvalidParameterValue, "wrong flag type, only arrays and scalars are allowed")
}

// jsonTexts are the texts of a json document's values of the kinds flags
// picks, in document order (an object's key before its value).
func jsonTexts(j *sqltypes.JSONValue, flags int, out []string) []string {
	switch j.Kind {
	case sqltypes.JSONString:
		if flags&jsonFlagString != 0 {
			out = append(out, j.Str)
		}
	case sqltypes.JSONNumber:
		if flags&jsonFlagNumeric != 0 {
			if j.Num != nil {
				out = append(out, string(sqltypes.AppendNumeric(nil, j.Num)))
			} else {
				out = append(out, j.Source())
			}
		}
	case sqltypes.JSONBool:
		if flags&jsonFlagBoolean != 0 {
			out = append(out, strconv.FormatBool(j.Bool))
		}
	case sqltypes.JSONArray, sqltypes.JSONObject:
		for i := range j.Elems {
			if j.Kind == sqltypes.JSONObject && flags&jsonFlagKey != 0 {
				out = append(out, j.Keys[i])
			}
			out = jsonTexts(&j.Elems[i], flags, out)
		}
	}
	return out
}

// parserArg names the default parser, by name or OID, as ts_parse and
// ts_token_type take it.
func parserArg(v sqltypes.Value) error {
	if v.K == sqltypes.KindInt {
		if v.I != tsearch.DefaultParserOID {
			return pgerr.Raised("cache lookup failed for text search parser %d", v.I)
		}
		return nil
	}
	parts, err := sqltypes.SplitQualifiedName(v.S)
	if err != nil {
		return err
	}
	if parts[len(parts)-1] == "default" && (len(parts) == 1 || len(parts) == 2 && parts[0] == "pg_catalog") {
		return nil
	}
	return pgerr.New(pgerr.UndefinedObject, "text search parser \"%s\" does not exist", v.S)
}

func init() {
	text := T(sqltypes.TypeText)
	oid := T(sqltypes.TypeOid)
	cfg := T(sqltypes.TypeRegConfig)
	tTV := sqltypes.TypeTSVector
	record := sqltypes.Type{ID: sqltypes.Record}
	parse := func(p Param, vol Volatility) Overload {
		return Overload{Params: []Param{p, text}, Result: Returns(record), Volatility: vol,
			Doc: "the text's tokens by the parser, as (tokid, token) rows",
			Set: &SetFunc{Columns: []SetColumn{{Name: "tokid", Type: sqltypes.TypeInt4}, {Name: "token", Type: sqltypes.TypeText}},
				Rows: func(_ *Context, a []sqltypes.Value) (SetRows, error) {
					if err := parserArg(a[0]); err != nil {
						return nil, err
					}
					var rows [][]sqltypes.Value
					for _, t := range tsearch.Parse(a[1].S) {
						rows = append(rows, []sqltypes.Value{sqltypes.NewInt(int64(t.Type)), sqltypes.NewText(t.Text)})
					}
					return Table(rows), nil
				}}}
	}
	Register("ts_parse", parse(oid, Immutable), parse(text, Stable))
	tokenTypes := func(p Param, vol Volatility) Overload {
		return Overload{Params: []Param{p}, Result: Returns(record), Volatility: vol,
			Doc: "the parser's token types, as (tokid, alias, description) rows",
			Set: &SetFunc{Columns: []SetColumn{{Name: "tokid", Type: sqltypes.TypeInt4}, {Name: "alias", Type: sqltypes.TypeText}, {Name: "description", Type: sqltypes.TypeText}},
				Rows: func(_ *Context, a []sqltypes.Value) (SetRows, error) {
					if err := parserArg(a[0]); err != nil {
						return nil, err
					}
					var rows [][]sqltypes.Value
					for i, t := range tsearch.TokenTypes {
						rows = append(rows, []sqltypes.Value{sqltypes.NewInt(int64(i + 1)), sqltypes.NewText(t.Alias), sqltypes.NewText(t.Description)})
					}
					return Table(rows), nil
				}}}
	}
	Register("ts_token_type", tokenTypes(oid, Immutable), tokenTypes(text, Stable))
	debug := func(withCfg bool) Overload {
		params := []Param{text}
		if withCfg {
			params = []Param{cfg, text}
		}
		dict := sqltypes.TypeRegDictionary
		return Overload{Params: params, Result: Returns(record), Volatility: Stable,
			Doc: "the text's tokens by the configuration, each with its dictionaries and lexemes",
			Set: &SetFunc{Columns: []SetColumn{{Name: "alias", Type: sqltypes.TypeText}, {Name: "description", Type: sqltypes.TypeText},
				{Name: "token", Type: sqltypes.TypeText}, {Name: "dictionaries", Type: sqltypes.ArrayOf(dict)},
				{Name: "dictionary", Type: dict}, {Name: "lexemes", Type: sqltypes.ArrayOf(sqltypes.TypeText)}},
				Rows: func(ctx *Context, a []sqltypes.Value) (SetRows, error) {
					c, a, err := configArgs(ctx, a, withCfg)
					if err != nil {
						return nil, err
					}
					return Table(tsDebug(c, a[0].S)), nil
				}}}
	}
	Register("ts_debug", debug(true), debug(false))

	// to_tsvector of json and jsonb: the document's strings.
	jsonVector := func(withCfg, jsonb, filtered bool) Overload {
		params := []Param{T(sqltypes.TypeJSONB)}
		if !jsonb {
			params = []Param{T(sqltypes.TypeJSON)}
		}
		if filtered {
			params = append(params, T(sqltypes.TypeJSONB))
		}
		vol := Immutable
		if withCfg {
			params = append([]Param{cfg}, params...)
		} else {
			vol = Stable
		}
		return Overload{Params: params, Result: Returns(tTV), Volatility: vol, Doc: "the lexemes of the document's strings (with a filter: of the kinds of values it names)",
			Eval: func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				c, a, err := configArgs(ctx, a, withCfg)
				if err != nil {
					return sqltypes.Null, err
				}
				j := a[0].JSONB()
				if !jsonb {
					if j, err = sqltypes.ParseJSONTree(a[0].S); err != nil {
						return sqltypes.Null, err
					}
				}
				flags := jsonFlagString
				if filtered {
					if flags, err = jsonFilter(a[1].JSONB()); err != nil {
						return sqltypes.Null, err
					}
				}
				v, err := c.ToTSVectorOf(jsonTexts(j, flags, nil))
				if err != nil {
					return sqltypes.Null, err
				}
				return tsvectorV(v), nil
			}}
	}
	Register("to_tsvector", jsonVector(true, true, false), jsonVector(true, false, false), jsonVector(false, true, false), jsonVector(false, false, false))
	Register("jsonb_to_tsvector", jsonVector(true, true, true), jsonVector(false, true, true))
	Register("json_to_tsvector", jsonVector(true, false, true), jsonVector(false, false, true))
}

// TSVectorUnnest is unnest(tsvector): the lexemes as rows of (lexeme,
// positions, weights), NULL positions and weights for a stripped lexeme.
var TSVectorUnnest = Overload{Params: []Param{T(sqltypes.TypeTSVector)}, Retset: true, Result: Returns(sqltypes.Type{ID: sqltypes.Record}), Volatility: Immutable,
	Doc: "the tsvector's lexemes as rows of (lexeme, positions, weights)",
	Set: &SetFunc{Columns: []SetColumn{{Name: "lexeme", Type: sqltypes.TypeText}, {Name: "positions", Type: sqltypes.ArrayOf(sqltypes.TypeInt2)}, {Name: "weights", Type: sqltypes.ArrayOf(sqltypes.TypeText)}},
		Rows: func(_ *Context, a []sqltypes.Value) (SetRows, error) {
			var rows [][]sqltypes.Value
			for _, l := range a[0].TSVector().Lexemes {
				row := []sqltypes.Value{sqltypes.NewText(l.Word), sqltypes.Null, sqltypes.Null}
				if len(l.Pos) > 0 {
					pos := make([]sqltypes.Value, len(l.Pos))
					ws := make([]sqltypes.Value, len(l.Pos))
					for i, p := range l.Pos {
						pos[i] = sqltypes.NewInt(int64(p.Pos()))
						ws[i] = sqltypes.NewText(string("DCBA"[p.Weight()]))
					}
					row[1] = sqltypes.NewArray(&sqltypes.ArrayValue{Elem: sqltypes.TypeInt2, Dims: []int32{int32(len(pos))}, Elems: pos})
					row[2] = sqltypes.NewArray(&sqltypes.ArrayValue{Elem: sqltypes.TypeText, Dims: []int32{int32(len(ws))}, Elems: ws})
				}
				rows = append(rows, row)
			}
			return Table(rows), nil
		}}}

func init() {
	text := T(sqltypes.TypeText)
	tq := T(sqltypes.TypeTSQuery)
	cfg := T(sqltypes.TypeRegConfig)
	// ts_headline of text, and of json and jsonb: each string value
	// highlighted on its own, the document's structure kept.
	headline := func(doc Param, withCfg, withOpts bool) Overload {
		params := []Param{doc, tq}
		vol := Immutable
		if withCfg {
			params = append([]Param{cfg}, params...)
		} else {
			vol = Stable
		}
		if withOpts {
			params = append(params, text)
		}
		isText := doc.Type.ID == sqltypes.Text
		docText := "the document with the query's words marked, cut to its best stretch"
		if !isText {
			docText = "the document with the query's words marked in each of its strings"
		}
		return Overload{Params: params, Result: Returns(doc.Type), Volatility: vol, Doc: docText,
			Eval: func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				c, a, err := configArgs(ctx, a, withCfg)
				if err != nil {
					return sqltypes.Null, err
				}
				opts := ""
				if withOpts {
					opts = a[2].S
				}
				q := a[1].TSQuery()
				if isText {
					o, err := tsearch.ParseHeadlineOptions(opts)
					if err != nil {
						return sqltypes.Null, err
					}
					return sqltypes.NewText(c.Headline(a[0].S, q, o)), nil
				}
				// PostgreSQL reads the options list first, their values
				// when it highlights the first string.
				if err := tsearch.CheckHeadlineOptionsList(opts); err != nil {
					return sqltypes.Null, err
				}
				var o *tsearch.HeadlineOptions
				return sqltypes.TransformJSONStrings(a[0], func(s string) (string, error) {
					if o == nil {
						po, err := tsearch.ParseHeadlineOptions(opts)
						if err != nil {
							return "", err
						}
						o = &po
					}
					return c.Headline(s, q, *o), nil
				})
			}}
	}
	for _, doc := range []Param{text, T(sqltypes.TypeJSONB), T(sqltypes.TypeJSON)} {
		Register("ts_headline", headline(doc, true, true), headline(doc, true, false), headline(doc, false, true), headline(doc, false, false))
	}
}

// tsDebug is ts_debug's rows: each token's type, text, the dictionaries
// the configuration maps its type to (one or none here), the dictionary
// that recognised it and its lexemes (none for a type nothing indexes).
func tsDebug(c *tsearch.Config, doc string) [][]sqltypes.Value {
	var rows [][]sqltypes.Value
	for _, t := range tsearch.Parse(doc) {
		info := tsearch.TokenTypes[t.Type-1]
		row := []sqltypes.Value{sqltypes.NewText(info.Alias), sqltypes.NewText(info.Description), sqltypes.NewText(t.Text)}
		d := c.Dictionary(t.Type)
		if d == 0 {
			row = append(row, sqltypes.NewArray1(sqltypes.TypeRegDictionary, nil), sqltypes.Null, sqltypes.Null)
		} else {
			name := d.Name()
			v, _ := sqltypes.ParseRegDictionary(name)
			row = append(row, sqltypes.NewArray1(sqltypes.TypeRegDictionary, []sqltypes.Value{v}), v, wordsArray(d.Lexize(t.Text)))
		}
		rows = append(rows, row)
	}
	return rows
}

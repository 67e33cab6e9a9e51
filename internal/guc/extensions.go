package guc

// extensionParams are the parameters of the extensions zproxy has built in
// (catalog/pgcatalog/extensions.go), as PostgreSQL 15 defines them once
// the extension's library is loaded (placeholders before that, which
// zproxy, always having them installed, never shows). pg_trgm's
// thresholds are in the generated table's form.
var extensionParams = []Param{
	{Name: "pg_trgm.similarity_threshold", Context: "user", Type: Real, Boot: "0.3", Min: "0", Max: "1",
		Category: "Customized Options", Desc: "Sets the threshold used by the % operator."},
	{Name: "pg_trgm.strict_word_similarity_threshold", Context: "user", Type: Real, Boot: "0.5", Min: "0", Max: "1",
		Category: "Customized Options", Desc: "Sets the threshold used by the <<% operator."},
	{Name: "pg_trgm.word_similarity_threshold", Context: "user", Type: Real, Boot: "0.6", Min: "0", Max: "1",
		Category: "Customized Options", Desc: "Sets the threshold used by the <% operator."},
}

// IsExtension reports whether p is an extension's parameter rather than
// one of PostgreSQL's own.
func (p *Param) IsExtension() bool {
	for i := range extensionParams {
		if p == &extensionParams[i] {
			return true
		}
	}
	return false
}

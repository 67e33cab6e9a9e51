package guc

// extensionParams are the parameters of the extensions zproxy has built in
// (catalog/pgcatalog/extensions.go) and of auto_explain, as PostgreSQL 15
// defines them once the library is loaded (placeholders before that, which
// zproxy, always having them, never shows). They are in the generated
// table's form.
var extensionParams = []Param{
	{Name: "auto_explain.log_analyze", Context: "superuser", Type: Bool, Boot: "off",
		Category: "Customized Options", Desc: "Use EXPLAIN ANALYZE for plan logging."},
	{Name: "auto_explain.log_buffers", Context: "superuser", Type: Bool, Boot: "off",
		Category: "Customized Options", Desc: "Log buffers usage."},
	{Name: "auto_explain.log_format", Context: "superuser", Type: Enum, Boot: "text",
		Category: "Customized Options", Desc: "EXPLAIN format to be used for plan logging.", EnumVals: []string{"text", "xml", "json", "yaml"}},
	{Name: "auto_explain.log_level", Context: "superuser", Type: Enum, Boot: "log",
		Category: "Customized Options", Desc: "Log level for the plan.",
		EnumVals: []string{"debug5", "debug4", "debug3", "debug2", "debug1", "info", "notice", "warning", "log"}, Aliases: map[string]string{"debug": "debug2"}},
	{Name: "auto_explain.log_min_duration", Context: "superuser", Type: Integer, Boot: "-1", Unit: "ms", Min: "-1", Max: "2147483647",
		Category: "Customized Options", Desc: "Sets the minimum execution time above which plans will be logged."},
	{Name: "auto_explain.log_nested_statements", Context: "superuser", Type: Bool, Boot: "off",
		Category: "Customized Options", Desc: "Log nested statements."},
	{Name: "auto_explain.log_settings", Context: "superuser", Type: Bool, Boot: "off",
		Category: "Customized Options", Desc: "Log modified configuration parameters affecting query planning."},
	{Name: "auto_explain.log_timing", Context: "superuser", Type: Bool, Boot: "on",
		Category: "Customized Options", Desc: "Collect timing data, not just row counts."},
	{Name: "auto_explain.log_triggers", Context: "superuser", Type: Bool, Boot: "off",
		Category: "Customized Options", Desc: "Include trigger statistics in plans."},
	{Name: "auto_explain.log_verbose", Context: "superuser", Type: Bool, Boot: "off",
		Category: "Customized Options", Desc: "Use EXPLAIN VERBOSE for plan logging."},
	{Name: "auto_explain.log_wal", Context: "superuser", Type: Bool, Boot: "off",
		Category: "Customized Options", Desc: "Log WAL usage."},
	{Name: "auto_explain.sample_rate", Context: "superuser", Type: Real, Boot: "1", Min: "0", Max: "1",
		Category: "Customized Options", Desc: "Fraction of queries to process."},
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

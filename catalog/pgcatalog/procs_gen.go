// Code generated from PostgreSQL 15's pg_proc (built-in functions of
// pg_catalog: oid|name|argument type OIDs|result type OID|kind|returns a set);
// DO NOT EDIT by hand.

package pgcatalog

// pgProcTable is PostgreSQL's OIDs for its functions, so a function zproxy
// has keeps PostgreSQL's OID in pg_proc.
const pgProcTable = `
56|boollt|16 16|16|f|f
57|boolgt|16 16|16|f|f
60|booleq|16 16|16|f|f
61|chareq|18 18|16|f|f
62|nameeq|19 19|16|f|f
63|int2eq|21 21|16|f|f
64|int2lt|21 21|16|f|f
65|int4eq|23 23|16|f|f
66|int4lt|23 23|16|f|f
67|texteq|25 25|16|f|f
68|xideq|28 28|16|f|f
69|cideq|29 29|16|f|f
70|charne|18 18|16|f|f
72|charle|18 18|16|f|f
73|chargt|18 18|16|f|f
74|charge|18 18|16|f|f
77|int4|18|23|f|f
78|char|23|18|f|f
79|nameregexeq|19 25|16|f|f
84|boolne|16 16|16|f|f
89|version||25|f|f
136|on_pb|600 603|16|f|f
137|on_ppath|600 602|16|f|f
141|int4mul|23 23|23|f|f
144|int4ne|23 23|16|f|f
145|int2ne|21 21|16|f|f
146|int2gt|21 21|16|f|f
147|int4gt|23 23|16|f|f
148|int2le|21 21|16|f|f
149|int4le|23 23|16|f|f
150|int4ge|23 23|16|f|f
151|int2ge|21 21|16|f|f
152|int2mul|21 21|21|f|f
153|int2div|21 21|21|f|f
154|int4div|23 23|23|f|f
155|int2mod|21 21|21|f|f
156|int4mod|23 23|23|f|f
157|textne|25 25|16|f|f
158|int24eq|21 23|16|f|f
159|int42eq|23 21|16|f|f
160|int24lt|21 23|16|f|f
161|int42lt|23 21|16|f|f
162|int24gt|21 23|16|f|f
163|int42gt|23 21|16|f|f
164|int24ne|21 23|16|f|f
165|int42ne|23 21|16|f|f
166|int24le|21 23|16|f|f
167|int42le|23 21|16|f|f
168|int24ge|21 23|16|f|f
169|int42ge|23 21|16|f|f
170|int24mul|21 23|23|f|f
171|int42mul|23 21|23|f|f
172|int24div|21 23|23|f|f
173|int42div|23 21|23|f|f
176|int2pl|21 21|21|f|f
177|int4pl|23 23|23|f|f
178|int24pl|21 23|23|f|f
179|int42pl|23 21|23|f|f
180|int2mi|21 21|21|f|f
181|int4mi|23 23|23|f|f
182|int24mi|21 23|23|f|f
183|int42mi|23 21|23|f|f
184|oideq|26 26|16|f|f
185|oidne|26 26|16|f|f
202|float4mul|700 700|700|f|f
203|float4div|700 700|700|f|f
204|float4pl|700 700|700|f|f
205|float4mi|700 700|700|f|f
206|float4um|700|700|f|f
207|float4abs|700|700|f|f
208|float4_accum|1022 700|1022|f|f
209|float4larger|700 700|700|f|f
211|float4smaller|700 700|700|f|f
212|int4um|23|23|f|f
213|int2um|21|21|f|f
216|float8mul|701 701|701|f|f
217|float8div|701 701|701|f|f
218|float8pl|701 701|701|f|f
219|float8mi|701 701|701|f|f
220|float8um|701|701|f|f
221|float8abs|701|701|f|f
222|float8_accum|1022 701|1022|f|f
223|float8larger|701 701|701|f|f
224|float8smaller|701 701|701|f|f
228|dround|701|701|f|f
229|dtrunc|701|701|f|f
230|dsqrt|701|701|f|f
231|dcbrt|701|701|f|f
232|dpow|701 701|701|f|f
233|dexp|701|701|f|f
234|dlog1|701|701|f|f
235|float8|21|701|f|f
236|float4|21|700|f|f
237|int2|701|21|f|f
238|int2|700|21|f|f
240|nameeqtext|19 25|16|f|f
241|namelttext|19 25|16|f|f
242|nameletext|19 25|16|f|f
243|namegetext|19 25|16|f|f
244|namegttext|19 25|16|f|f
245|namenetext|19 25|16|f|f
247|texteqname|25 19|16|f|f
248|textltname|25 19|16|f|f
249|textlename|25 19|16|f|f
250|textgename|25 19|16|f|f
251|textgtname|25 19|16|f|f
252|textnename|25 19|16|f|f
266|nameconcatoid|19 26|19|f|f
274|timeofday||25|f|f
275|pg_nextoid|2205 19 2205|26|f|f
276|float8_combine|1022 1022|1022|f|f
277|inter_sl|601 628|16|f|f
278|inter_lb|628 603|16|f|f
279|float48mul|700 701|701|f|f
280|float48div|700 701|701|f|f
281|float48pl|700 701|701|f|f
282|float48mi|700 701|701|f|f
283|float84mul|701 700|701|f|f
284|float84div|701 700|701|f|f
285|float84pl|701 700|701|f|f
286|float84mi|701 700|701|f|f
287|float4eq|700 700|16|f|f
288|float4ne|700 700|16|f|f
289|float4lt|700 700|16|f|f
290|float4le|700 700|16|f|f
291|float4gt|700 700|16|f|f
292|float4ge|700 700|16|f|f
293|float8eq|701 701|16|f|f
294|float8ne|701 701|16|f|f
295|float8lt|701 701|16|f|f
296|float8le|701 701|16|f|f
297|float8gt|701 701|16|f|f
298|float8ge|701 701|16|f|f
299|float48eq|700 701|16|f|f
300|float48ne|700 701|16|f|f
301|float48lt|700 701|16|f|f
302|float48le|700 701|16|f|f
303|float48gt|700 701|16|f|f
304|float48ge|700 701|16|f|f
305|float84eq|701 700|16|f|f
306|float84ne|701 700|16|f|f
307|float84lt|701 700|16|f|f
308|float84le|701 700|16|f|f
309|float84gt|701 700|16|f|f
310|float84ge|701 700|16|f|f
311|float8|700|701|f|f
312|float4|701|700|f|f
313|int4|21|23|f|f
314|int2|23|21|f|f
315|pg_jit_available||16|f|f
316|float8|23|701|f|f
317|int4|701|23|f|f
318|float4|23|700|f|f
319|int4|700|23|f|f
320|width_bucket|701 701 701 23|23|f|f
338|amvalidate|26|16|f|f
357|dist_bp|603 600|701|f|f
363|dist_ps|600 601|701|f|f
364|dist_pb|600 603|701|f|f
365|dist_sb|601 603|701|f|f
366|close_ps|600 601|600|f|f
367|close_pb|600 603|600|f|f
368|close_sb|601 603|600|f|f
369|on_ps|600 601|16|f|f
371|dist_ppath|600 602|701|f|f
372|on_sb|601 603|16|f|f
373|inter_sb|601 603|16|f|f
376|string_to_array|25 25 25|1009|f|f
377|cash_cmp|790 790|23|f|f
378|array_append|5078 5077|5078|f|f
379|array_prepend|5077 5078|5078|f|f
380|dist_sp|601 600|701|f|f
381|dist_bs|603 601|701|f|f
383|array_cat|5078 5078|5078|f|f
384|array_to_string|2277 25 25|25|f|f
390|array_ne|2277 2277|16|f|f
391|array_lt|2277 2277|16|f|f
392|array_gt|2277 2277|16|f|f
393|array_le|2277 2277|16|f|f
394|string_to_array|25 25|1009|f|f
395|array_to_string|2277 25|25|f|f
396|array_ge|2277 2277|16|f|f
401|text|1042|25|f|f
406|text|19|25|f|f
407|name|25|19|f|f
408|bpchar|19|1042|f|f
409|name|1042|19|f|f
421|dist_pathp|602 600|701|f|f
438|num_nulls|2276|23|f|f
440|num_nonnulls|2276|23|f|f
458|text_larger|25 25|25|f|f
459|text_smaller|25 25|25|f|f
462|int8um|20|20|f|f
463|int8pl|20 20|20|f|f
464|int8mi|20 20|20|f|f
465|int8mul|20 20|20|f|f
466|int8div|20 20|20|f|f
467|int8eq|20 20|16|f|f
468|int8ne|20 20|16|f|f
469|int8lt|20 20|16|f|f
470|int8gt|20 20|16|f|f
471|int8le|20 20|16|f|f
472|int8ge|20 20|16|f|f
474|int84eq|20 23|16|f|f
475|int84ne|20 23|16|f|f
476|int84lt|20 23|16|f|f
477|int84gt|20 23|16|f|f
478|int84le|20 23|16|f|f
479|int84ge|20 23|16|f|f
480|int4|20|23|f|f
481|int8|23|20|f|f
482|float8|20|701|f|f
483|int8|701|20|f|f
515|array_larger|2277 2277|2277|f|f
516|array_smaller|2277 2277|2277|f|f
598|abbrev|869|25|f|f
599|abbrev|650|25|f|f
605|set_masklen|869 23|869|f|f
619|oidvectorne|30 30|16|f|f
635|set_masklen|650 23|650|f|f
636|pg_indexam_has_property|26 25|16|f|f
637|pg_index_has_property|2205 25|16|f|f
638|pg_index_column_has_property|2205 23 25|16|f|f
652|float4|20|700|f|f
653|int8|700|20|f|f
655|namelt|19 19|16|f|f
656|namele|19 19|16|f|f
657|namegt|19 19|16|f|f
658|namege|19 19|16|f|f
659|namene|19 19|16|f|f
668|bpchar|1042 23 16|1042|f|f
669|varchar|1043 23 16|1043|f|f
676|pg_indexam_progress_phasename|26 20|25|f|f
677|oidvectorlt|30 30|16|f|f
678|oidvectorle|30 30|16|f|f
679|oidvectoreq|30 30|16|f|f
680|oidvectorge|30 30|16|f|f
681|oidvectorgt|30 30|16|f|f
683|network|869|650|f|f
696|netmask|869|869|f|f
697|masklen|869|23|f|f
698|broadcast|869|869|f|f
699|host|869|25|f|f
702|dist_lp|628 600|701|f|f
704|dist_ls|628 601|701|f|f
710|getpgusername||19|f|f
711|family|869|23|f|f
714|int2|20|21|f|f
715|lo_create|26|26|f|f
716|oidlt|26 26|16|f|f
717|oidle|26 26|16|f|f
720|octet_length|17|23|f|f
721|get_byte|17 23|23|f|f
722|set_byte|17 23 23|17|f|f
723|get_bit|17 20|23|f|f
724|set_bit|17 20 23|17|f|f
725|dist_pl|600 628|701|f|f
727|dist_sl|601 628|701|f|f
728|dist_cpoly|718 604|701|f|f
730|text|869|25|f|f
740|text_lt|25 25|16|f|f
741|text_le|25 25|16|f|f
742|text_gt|25 25|16|f|f
743|text_ge|25 25|16|f|f
744|array_eq|2277 2277|16|f|f
745|current_user||19|f|f
746|session_user||19|f|f
747|array_dims|2277|25|f|f
748|array_ndims|2277|23|f|f
749|overlay|17 17 23 23|17|f|f
752|overlay|17 17 23|17|f|f
753|trunc|829|829|f|f
754|int8|21|20|f|f
764|lo_import|25|26|f|f
765|lo_export|26 25|23|f|f
766|int4inc|23|23|f|f
767|lo_import|25 26|26|f|f
768|int4larger|23 23|23|f|f
769|int4smaller|23 23|23|f|f
770|int2larger|21 21|21|f|f
771|int2smaller|21 21|21|f|f
785|dist_polyc|604 718|701|f|f
810|pg_client_encoding||19|f|f
817|current_query||25|f|f
837|int82pl|20 21|20|f|f
838|int82mi|20 21|20|f|f
839|int82mul|20 21|20|f|f
840|int82div|20 21|20|f|f
841|int28pl|21 20|20|f|f
846|cash_mul_flt4|790 700|790|f|f
847|cash_div_flt4|790 700|790|f|f
848|flt4_mul_cash|700 790|790|f|f
849|position|25 25|23|f|f
850|textlike|25 25|16|f|f
851|textnlike|25 25|16|f|f
852|int48eq|23 20|16|f|f
853|int48ne|23 20|16|f|f
854|int48lt|23 20|16|f|f
855|int48gt|23 20|16|f|f
856|int48le|23 20|16|f|f
857|int48ge|23 20|16|f|f
858|namelike|19 25|16|f|f
859|namenlike|19 25|16|f|f
860|bpchar|18|1042|f|f
861|current_database||19|f|f
862|int4_mul_cash|23 790|790|f|f
863|int2_mul_cash|21 790|790|f|f
864|cash_mul_int4|790 23|790|f|f
865|cash_div_int4|790 23|790|f|f
866|cash_mul_int2|790 21|790|f|f
867|cash_div_int2|790 21|790|f|f
868|strpos|25 25|23|f|f
870|lower|25|25|f|f
871|upper|25|25|f|f
872|initcap|25|25|f|f
873|lpad|25 23 25|25|f|f
874|rpad|25 23 25|25|f|f
875|ltrim|25 25|25|f|f
876|rtrim|25 25|25|f|f
877|substr|25 23 23|25|f|f
878|translate|25 25 25|25|f|f
879|lpad|25 23|25|f|f
880|rpad|25 23|25|f|f
881|ltrim|25|25|f|f
882|rtrim|25|25|f|f
883|substr|25 23|25|f|f
888|cash_eq|790 790|16|f|f
889|cash_ne|790 790|16|f|f
890|cash_lt|790 790|16|f|f
891|cash_le|790 790|16|f|f
892|cash_gt|790 790|16|f|f
893|cash_ge|790 790|16|f|f
894|cash_pl|790 790|790|f|f
895|cash_mi|790 790|790|f|f
896|cash_mul_flt8|790 701|790|f|f
897|cash_div_flt8|790 701|790|f|f
898|cashlarger|790 790|790|f|f
899|cashsmaller|790 790|790|f|f
919|flt8_mul_cash|701 790|790|f|f
920|network_eq|869 869|16|f|f
921|network_lt|869 869|16|f|f
922|network_le|869 869|16|f|f
923|network_gt|869 869|16|f|f
924|network_ge|869 869|16|f|f
925|network_ne|869 869|16|f|f
926|network_cmp|869 869|23|f|f
927|network_sub|869 869|16|f|f
928|network_subeq|869 869|16|f|f
929|network_sup|869 869|16|f|f
930|network_supeq|869 869|16|f|f
935|cash_words|790|25|f|f
936|substring|25 23 23|25|f|f
937|substring|25 23|25|f|f
938|generate_series|1114 1114 1186|1114|f|t
939|generate_series|1184 1184 1186|1184|f|t
940|mod|21 21|21|f|f
941|mod|23 23|23|f|f
942|int28mi|21 20|20|f|f
943|int28mul|21 20|20|f|f
944|char|25|18|f|f
945|int8mod|20 20|20|f|f
946|text|18|25|f|f
947|mod|20 20|20|f|f
948|int28div|21 20|20|f|f
952|lo_open|26 23|23|f|f
953|lo_close|23|23|f|f
954|loread|23 23|17|f|f
955|lowrite|23 17|23|f|f
956|lo_lseek|23 23 23|23|f|f
957|lo_creat|23|26|f|f
958|lo_tell|23|23|f|f
959|on_pl|600 628|16|f|f
960|on_sl|601 628|16|f|f
961|close_pl|600 628|600|f|f
964|lo_unlink|26|23|f|f
975|area|603|701|f|f
976|width|603|701|f|f
977|height|603|701|f|f
979|area|602|701|f|f
981|diagonal|603|601|f|f
992|slope|600 600|701|f|f
1004|lo_truncate|23 23|23|f|f
1026|timezone|1186 1184|1114|f|f
1035|aclinsert|1034 1033|1034|f|f
1036|aclremove|1034 1033|1034|f|f
1037|aclcontains|1034 1033|16|f|f
1039|getdatabaseencoding||19|f|f
1048|bpchareq|1042 1042|16|f|f
1049|bpcharlt|1042 1042|16|f|f
1050|bpcharle|1042 1042|16|f|f
1051|bpchargt|1042 1042|16|f|f
1052|bpcharge|1042 1042|16|f|f
1053|bpcharne|1042 1042|16|f|f
1062|aclitemeq|1033 1033|16|f|f
1063|bpchar_larger|1042 1042|1042|f|f
1064|bpchar_smaller|1042 1042|1042|f|f
1065|pg_prepared_xact||2249|f|t
1066|generate_series|23 23 23|23|f|t
1067|generate_series|23 23|23|f|t
1068|generate_series|20 20 20|20|f|t
1069|generate_series|20 20|20|f|t
1078|bpcharcmp|1042 1042|23|f|f
1079|regclass|25|2205|f|f
1081|format_type|26 23|25|f|f
1086|date_eq|1082 1082|16|f|f
1087|date_lt|1082 1082|16|f|f
1088|date_le|1082 1082|16|f|f
1089|date_gt|1082 1082|16|f|f
1090|date_ge|1082 1082|16|f|f
1091|date_ne|1082 1082|16|f|f
1092|date_cmp|1082 1082|23|f|f
1102|time_lt|1083 1083|16|f|f
1103|time_le|1083 1083|16|f|f
1104|time_gt|1083 1083|16|f|f
1105|time_ge|1083 1083|16|f|f
1106|time_ne|1083 1083|16|f|f
1107|time_cmp|1083 1083|23|f|f
1137|pg_get_wal_replay_pause_state||25|f|f
1138|date_larger|1082 1082|1082|f|f
1139|date_smaller|1082 1082|1082|f|f
1140|date_mi|1082 1082|23|f|f
1141|date_pli|1082 23|1082|f|f
1142|date_mii|1082 23|1082|f|f
1145|time_eq|1083 1083|16|f|f
1152|timestamptz_eq|1184 1184|16|f|f
1153|timestamptz_ne|1184 1184|16|f|f
1154|timestamptz_lt|1184 1184|16|f|f
1155|timestamptz_le|1184 1184|16|f|f
1156|timestamptz_ge|1184 1184|16|f|f
1157|timestamptz_gt|1184 1184|16|f|f
1158|to_timestamp|701|1184|f|f
1159|timezone|25 1184|1114|f|f
1162|interval_eq|1186 1186|16|f|f
1163|interval_ne|1186 1186|16|f|f
1164|interval_lt|1186 1186|16|f|f
1165|interval_le|1186 1186|16|f|f
1166|interval_ge|1186 1186|16|f|f
1167|interval_gt|1186 1186|16|f|f
1168|interval_um|1186|1186|f|f
1169|interval_pl|1186 1186|1186|f|f
1170|interval_mi|1186 1186|1186|f|f
1171|date_part|25 1184|701|f|f
1172|date_part|25 1186|701|f|f
1174|timestamptz|1082|1184|f|f
1175|justify_hours|1186|1186|f|f
1176|timestamptz|1082 1083|1184|f|f
1177|jsonb_path_exists_tz|3802 4072 3802 16|16|f|f
1178|date|1184|1082|f|f
1179|jsonb_path_query_tz|3802 4072 3802 16|3802|f|t
1180|jsonb_path_query_array_tz|3802 4072 3802 16|3802|f|f
1181|age|28|23|f|f
1188|timestamptz_mi|1184 1184|1186|f|f
1189|timestamptz_pl_interval|1184 1186|1184|f|f
1190|timestamptz_mi_interval|1184 1186|1184|f|f
1191|generate_subscripts|2277 23 16|23|f|t
1192|generate_subscripts|2277 23|23|f|t
1193|array_fill|2283 1007|2277|f|f
1194|log10|701|701|f|f
1195|timestamptz_smaller|1184 1184|1184|f|f
1196|timestamptz_larger|1184 1184|1184|f|f
1197|interval_smaller|1186 1186|1186|f|f
1198|interval_larger|1186 1186|1186|f|f
1199|age|1184 1184|1186|f|f
1200|interval|1186 23|1186|f|f
1215|obj_description|26 19|25|f|f
1216|col_description|26 23|25|f|f
1217|date_trunc|25 1184|1184|f|f
1218|date_trunc|25 1186|1186|f|f
1219|int8inc|20|20|f|f
1230|int8abs|20|20|f|f
1236|int8larger|20 20|20|f|f
1237|int8smaller|20 20|20|f|f
1238|texticregexeq|25 25|16|f|f
1239|texticregexne|25 25|16|f|f
1240|nameicregexeq|19 25|16|f|f
1241|nameicregexne|19 25|16|f|f
1246|charlt|18 18|16|f|f
1250|unique_key_recheck||2279|f|f
1251|int4abs|23|23|f|f
1252|nameregexne|19 25|16|f|f
1253|int2abs|21|21|f|f
1254|textregexeq|25 25|16|f|f
1256|textregexne|25 25|16|f|f
1257|textlen|25|23|f|f
1258|textcat|25 25|25|f|f
1264|pg_char_to_encoding|19|23|f|f
1265|tidne|27 27|16|f|f
1268|parse_ident|25 16|1009|f|f
1269|pg_column_size|2276|23|f|f
1271|overlaps|1266 1266 1266 1266|16|f|f
1272|datetime_pl|1082 1083|1114|f|f
1273|date_part|25 1266|701|f|f
1274|int84pl|20 23|20|f|f
1275|int84mi|20 23|20|f|f
1276|int84mul|20 23|20|f|f
1277|int84div|20 23|20|f|f
1278|int48pl|23 20|20|f|f
1279|int48mi|23 20|20|f|f
1280|int48mul|23 20|20|f|f
1281|int48div|23 20|20|f|f
1282|quote_ident|25|25|f|f
1283|quote_literal|25|25|f|f
1284|date_trunc|25 1184 25|1184|f|f
1285|quote_literal|2283|25|f|f
1286|array_fill|2283 1007 1007|2277|f|f
1287|oid|20|26|f|f
1288|int8|26|20|f|f
1289|quote_nullable|25|25|f|f
1290|quote_nullable|2283|25|f|f
1291|suppress_redundant_updates_trigger||2279|f|f
1292|tideq|27 27|16|f|f
1293|unnest|4537|3831|f|t
1294|currtid2|25 27|27|f|f
1295|justify_days|1186|1186|f|f
1296|timedate_pl|1083 1082|1114|f|f
1297|datetimetz_pl|1082 1266|1184|f|f
1298|timetzdate_pl|1266 1082|1184|f|f
1299|now||1184|f|f
1304|overlaps|1184 1184 1184 1184|16|f|f
1305|overlaps|1184 1186 1184 1186|16|f|f
1306|overlaps|1184 1184 1184 1186|16|f|f
1307|overlaps|1184 1186 1184 1184|16|f|f
1308|overlaps|1083 1083 1083 1083|16|f|f
1309|overlaps|1083 1186 1083 1186|16|f|f
1310|overlaps|1083 1083 1083 1186|16|f|f
1311|overlaps|1083 1186 1083 1083|16|f|f
1314|timestamptz_cmp|1184 1184|23|f|f
1315|interval_cmp|1186 1186|23|f|f
1316|time|1114|1083|f|f
1317|length|25|23|f|f
1318|length|1042|23|f|f
1319|xideqint4|28 23|16|f|f
1326|interval_div|1186 701|1186|f|f
1339|dlog10|701|701|f|f
1340|log|701|701|f|f
1341|ln|701|701|f|f
1342|round|701|701|f|f
1343|trunc|701|701|f|f
1344|sqrt|701|701|f|f
1345|cbrt|701|701|f|f
1346|pow|701 701|701|f|f
1347|exp|701|701|f|f
1348|obj_description|26|25|f|f
1349|oidvectortypes|30|25|f|f
1352|timetz_eq|1266 1266|16|f|f
1353|timetz_ne|1266 1266|16|f|f
1354|timetz_lt|1266 1266|16|f|f
1355|timetz_le|1266 1266|16|f|f
1356|timetz_ge|1266 1266|16|f|f
1357|timetz_gt|1266 1266|16|f|f
1358|timetz_cmp|1266 1266|23|f|f
1359|timestamptz|1082 1266|1184|f|f
1362|hostmask|869|869|f|f
1365|makeaclitem|26 26 25 16|1033|f|f
1367|character_length|1042|23|f|f
1368|power|701 701|701|f|f
1369|character_length|25|23|f|f
1370|interval|1083|1186|f|f
1371|pg_lock_status||2249|f|t
1372|char_length|1042|23|f|f
1373|isfinite|1082|16|f|f
1374|octet_length|25|23|f|f
1375|octet_length|1042|23|f|f
1376|factorial|20|1700|f|f
1377|time_larger|1083 1083|1083|f|f
1378|time_smaller|1083 1083|1083|f|f
1379|timetz_larger|1266 1266|1266|f|f
1380|timetz_smaller|1266 1266|1266|f|f
1381|char_length|25|23|f|f
1384|date_part|25 1082|701|f|f
1385|date_part|25 1083|701|f|f
1386|age|1184|1186|f|f
1387|pg_get_constraintdef|26|25|f|f
1388|timetz|1184|1266|f|f
1389|isfinite|1184|16|f|f
1390|isfinite|1186|16|f|f
1394|abs|700|700|f|f
1395|abs|701|701|f|f
1396|abs|20|20|f|f
1397|abs|23|23|f|f
1398|abs|21|21|f|f
1400|name|1043|19|f|f
1401|varchar|19|1043|f|f
1402|current_schema||19|f|f
1403|current_schemas|16|1003|f|f
1404|overlay|25 25 23 23|25|f|f
1405|overlay|25 25 23|25|f|f
1406|isvertical|600 600|16|f|f
1407|ishorizontal|600 600|16|f|f
1408|isparallel|601 601|16|f|f
1409|isperp|601 601|16|f|f
1410|isvertical|601|16|f|f
1411|ishorizontal|601|16|f|f
1412|isparallel|628 628|16|f|f
1413|isperp|628 628|16|f|f
1414|isvertical|628|16|f|f
1415|ishorizontal|628|16|f|f
1419|time|1186|1083|f|f
1429|pt_contained_poly|600 604|16|f|f
1430|isclosed|602|16|f|f
1431|isopen|602|16|f|f
1433|pclose|602|602|f|f
1434|popen|602|602|f|f
1468|area|718|701|f|f
1469|diameter|718|701|f|f
1470|radius|718|701|f|f
1476|dist_pc|600 718|701|f|f
1478|pt_contained_circle|600 718|16|f|f
1481|log10|1700|1700|f|f
1488|close_ls|628 601|600|f|f
1489|close_lseg|601 601|600|f|f
1530|length|601|701|f|f
1531|length|602|701|f|f
1542|center|603|600|f|f
1543|center|718|600|f|f
1545|npoints|602|23|f|f
1556|npoints|604|23|f|f
1569|like|25 25|16|f|f
1570|notlike|25 25|16|f|f
1571|like|19 25|16|f|f
1572|notlike|19 25|16|f|f
1573|pg_get_ruledef|26|25|f|f
1574|nextval|2205|20|f|f
1575|currval|2205|20|f|f
1576|setval|2205 20|20|f|f
1581|biteq|1560 1560|16|f|f
1582|bitne|1560 1560|16|f|f
1592|bitge|1560 1560|16|f|f
1593|bitgt|1560 1560|16|f|f
1594|bitle|1560 1560|16|f|f
1595|bitlt|1560 1560|16|f|f
1596|bitcmp|1560 1560|23|f|f
1597|pg_encoding_to_char|23|19|f|f
1598|random||701|f|f
1599|setseed|701|2278|f|f
1601|acos|701|701|f|f
1602|atan|701|701|f|f
1603|atan2|701 701|701|f|f
1605|cos|701|701|f|f
1606|tan|701|701|f|f
1607|cot|701|701|f|f
1608|degrees|701|701|f|f
1609|radians|701|701|f|f
1610|pi||701|f|f
1618|interval_mul|1186 701|1186|f|f
1619|pg_typeof|2276|2206|f|f
1620|ascii|25|23|f|f
1621|chr|23|25|f|f
1622|repeat|25 23|25|f|f
1623|similar_escape|25 25|25|f|f
1624|mul_d_interval|701 1186|1186|f|f
1631|bpcharlike|1042 25|16|f|f
1632|bpcharnlike|1042 25|16|f|f
1633|texticlike|25 25|16|f|f
1634|texticnlike|25 25|16|f|f
1635|nameiclike|19 25|16|f|f
1636|nameicnlike|19 25|16|f|f
1637|like_escape|25 25|25|f|f
1638|oidgt|26 26|16|f|f
1639|oidge|26 26|16|f|f
1640|pg_get_viewdef|25|25|f|f
1641|pg_get_viewdef|26|25|f|f
1642|pg_get_userbyid|26|19|f|f
1643|pg_get_indexdef|26|25|f|f
1644|RI_FKey_check_ins||2279|f|f
1645|RI_FKey_check_upd||2279|f|f
1646|RI_FKey_cascade_del||2279|f|f
1647|RI_FKey_cascade_upd||2279|f|f
1648|RI_FKey_restrict_del||2279|f|f
1649|RI_FKey_restrict_upd||2279|f|f
1650|RI_FKey_setnull_del||2279|f|f
1651|RI_FKey_setnull_upd||2279|f|f
1652|RI_FKey_setdefault_del||2279|f|f
1653|RI_FKey_setdefault_upd||2279|f|f
1654|RI_FKey_noaction_del||2279|f|f
1655|RI_FKey_noaction_upd||2279|f|f
1656|bpcharicregexeq|1042 25|16|f|f
1657|bpcharicregexne|1042 25|16|f|f
1658|bpcharregexeq|1042 25|16|f|f
1659|bpcharregexne|1042 25|16|f|f
1660|bpchariclike|1042 25|16|f|f
1661|bpcharicnlike|1042 25|16|f|f
1662|pg_get_triggerdef|26|25|f|f
1665|pg_get_serial_sequence|25 25|25|f|f
1666|varbiteq|1562 1562|16|f|f
1667|varbitne|1562 1562|16|f|f
1668|varbitge|1562 1562|16|f|f
1669|varbitgt|1562 1562|16|f|f
1670|varbitle|1562 1562|16|f|f
1671|varbitlt|1562 1562|16|f|f
1672|varbitcmp|1562 1562|23|f|f
1673|bitand|1560 1560|1560|f|f
1674|bitor|1560 1560|1560|f|f
1675|bitxor|1560 1560|1560|f|f
1676|bitnot|1560|1560|f|f
1677|bitshiftleft|1560 23|1560|f|f
1678|bitshiftright|1560 23|1560|f|f
1679|bitcat|1562 1562|1562|f|f
1680|substring|1560 23 23|1560|f|f
1681|length|1560|23|f|f
1682|octet_length|1560|23|f|f
1683|bit|23 23|1560|f|f
1684|int4|1560|23|f|f
1685|bit|1560 23 16|1560|f|f
1686|pg_get_keywords||2249|f|t
1687|varbit|1562 23 16|1562|f|f
1688|time_hash|1083|23|f|f
1689|aclexplode|1034|2249|f|t
1690|time_mi_time|1083 1083|1186|f|f
1691|boolle|16 16|16|f|f
1692|boolge|16 16|16|f|f
1696|timetz_hash|1266|23|f|f
1697|interval_hash|1186|23|f|f
1698|position|1560 1560|23|f|f
1699|substring|1560 23|1560|f|f
1703|numeric|1700 23|1700|f|f
1704|numeric_abs|1700|1700|f|f
1705|abs|1700|1700|f|f
1706|sign|1700|1700|f|f
1707|round|1700 23|1700|f|f
1708|round|1700|1700|f|f
1709|trunc|1700 23|1700|f|f
1710|trunc|1700|1700|f|f
1711|ceil|1700|1700|f|f
1712|floor|1700|1700|f|f
1713|length|17 19|23|f|f
1714|convert_from|17 19|25|f|f
1716|pg_get_expr|194 26|25|f|f
1717|convert_to|25 19|17|f|f
1718|numeric_eq|1700 1700|16|f|f
1719|numeric_ne|1700 1700|16|f|f
1720|numeric_gt|1700 1700|16|f|f
1721|numeric_ge|1700 1700|16|f|f
1722|numeric_lt|1700 1700|16|f|f
1723|numeric_le|1700 1700|16|f|f
1724|numeric_add|1700 1700|1700|f|f
1725|numeric_sub|1700 1700|1700|f|f
1726|numeric_mul|1700 1700|1700|f|f
1727|numeric_div|1700 1700|1700|f|f
1728|mod|1700 1700|1700|f|f
1729|numeric_mod|1700 1700|1700|f|f
1730|sqrt|1700|1700|f|f
1731|numeric_sqrt|1700|1700|f|f
1732|exp|1700|1700|f|f
1733|numeric_exp|1700|1700|f|f
1734|ln|1700|1700|f|f
1735|numeric_ln|1700|1700|f|f
1736|log|1700 1700|1700|f|f
1737|numeric_log|1700 1700|1700|f|f
1738|pow|1700 1700|1700|f|f
1739|numeric_power|1700 1700|1700|f|f
1740|numeric|23|1700|f|f
1741|log|1700|1700|f|f
1742|numeric|700|1700|f|f
1743|numeric|701|1700|f|f
1744|int4|1700|23|f|f
1745|float4|1700|700|f|f
1746|float8|1700|701|f|f
1747|time_pl_interval|1083 1186|1083|f|f
1748|time_mi_interval|1083 1186|1083|f|f
1749|timetz_pl_interval|1266 1186|1266|f|f
1750|timetz_mi_interval|1266 1186|1266|f|f
1764|numeric_inc|1700|1700|f|f
1765|setval|2205 20 16|20|f|f
1766|numeric_smaller|1700 1700|1700|f|f
1767|numeric_larger|1700 1700|1700|f|f
1768|to_char|1186 25|25|f|f
1769|numeric_cmp|1700 1700|23|f|f
1770|to_char|1184 25|25|f|f
1771|numeric_uminus|1700|1700|f|f
1772|to_char|1700 25|25|f|f
1773|to_char|23 25|25|f|f
1774|to_char|20 25|25|f|f
1775|to_char|700 25|25|f|f
1776|to_char|701 25|25|f|f
1777|to_number|25 25|1700|f|f
1778|to_timestamp|25 25|1184|f|f
1779|int8|1700|20|f|f
1780|to_date|25 25|1082|f|f
1781|numeric|20|1700|f|f
1782|numeric|21|1700|f|f
1783|int2|1700|21|f|f
1810|bit_length|17|23|f|f
1811|bit_length|25|23|f|f
1812|bit_length|1560|23|f|f
1813|convert|17 19 19|17|f|f
1830|float8_avg|1022|701|f|f
1831|float8_var_samp|1022|701|f|f
1832|float8_stddev_samp|1022|701|f|f
1833|numeric_accum|2281 1700|2281|f|f
1834|int2_accum|2281 21|2281|f|f
1835|int4_accum|2281 23|2281|f|f
1836|int8_accum|2281 20|2281|f|f
1837|numeric_avg|2281|1700|f|f
1838|numeric_var_samp|2281|1700|f|f
1839|numeric_stddev_samp|2281|1700|f|f
1840|int2_sum|20 21|20|f|f
1841|int4_sum|20 23|20|f|f
1842|int8_sum|1700 20|1700|f|f
1843|interval_accum|1187 1186|1187|f|f
1844|interval_avg|1187|1186|f|f
1845|to_ascii|25|25|f|f
1846|to_ascii|25 23|25|f|f
1847|to_ascii|25 19|25|f|f
1848|interval_pl_time|1186 1083|1083|f|f
1850|int28eq|21 20|16|f|f
1851|int28ne|21 20|16|f|f
1852|int28lt|21 20|16|f|f
1853|int28gt|21 20|16|f|f
1854|int28le|21 20|16|f|f
1855|int28ge|21 20|16|f|f
1856|int82eq|20 21|16|f|f
1857|int82ne|20 21|16|f|f
1858|int82lt|20 21|16|f|f
1859|int82gt|20 21|16|f|f
1860|int82le|20 21|16|f|f
1861|int82ge|20 21|16|f|f
1892|int2and|21 21|21|f|f
1893|int2or|21 21|21|f|f
1894|int2xor|21 21|21|f|f
1895|int2not|21|21|f|f
1896|int2shl|21 23|21|f|f
1897|int2shr|21 23|21|f|f
1898|int4and|23 23|23|f|f
1899|int4or|23 23|23|f|f
1900|int4xor|23 23|23|f|f
1901|int4not|23|23|f|f
1902|int4shl|23 23|23|f|f
1903|int4shr|23 23|23|f|f
1904|int8and|20 20|20|f|f
1905|int8or|20 20|20|f|f
1906|int8xor|20 20|20|f|f
1907|int8not|20|20|f|f
1908|int8shl|20 23|20|f|f
1909|int8shr|20 23|20|f|f
1910|int8up|20|20|f|f
1911|int2up|21|21|f|f
1912|int4up|23|23|f|f
1913|float4up|700|700|f|f
1914|float8up|701|701|f|f
1915|numeric_uplus|1700|1700|f|f
1922|has_table_privilege|19 25 25|16|f|f
1923|has_table_privilege|19 26 25|16|f|f
1924|has_table_privilege|26 25 25|16|f|f
1925|has_table_privilege|26 26 25|16|f|f
1926|has_table_privilege|25 25|16|f|f
1927|has_table_privilege|26 25|16|f|f
1946|encode|17 25|25|f|f
1947|decode|25 25|17|f|f
1948|byteaeq|17 17|16|f|f
1949|bytealt|17 17|16|f|f
1950|byteale|17 17|16|f|f
1951|byteagt|17 17|16|f|f
1952|byteage|17 17|16|f|f
1953|byteane|17 17|16|f|f
1954|byteacmp|17 17|23|f|f
1961|timestamp|1114 23|1114|f|f
1962|int2_avg_accum|1016 21|1016|f|f
1963|int4_avg_accum|1016 23|1016|f|f
1964|int8_avg|1016|1700|f|f
1965|oidlarger|26 26|26|f|f
1966|oidsmaller|26 26|26|f|f
1967|timestamptz|1184 23|1184|f|f
1968|time|1083 23|1083|f|f
1969|timetz|1266 23|1266|f|f
1973|div|1700 1700|1700|f|f
1980|numeric_div_trunc|1700 1700|1700|f|f
1986|similar_to_escape|25 25|25|f|f
1987|similar_to_escape|25|25|f|f
1993|shobj_description|26 19|25|f|f
2003|textanycat|25 2776|25|f|f
2004|anytextcat|2776 25|25|f|f
2005|bytealike|17 17|16|f|f
2006|byteanlike|17 17|16|f|f
2007|like|17 17|16|f|f
2008|notlike|17 17|16|f|f
2009|like_escape|17 17|17|f|f
2010|length|17|23|f|f
2011|byteacat|17 17|17|f|f
2012|substring|17 23 23|17|f|f
2013|substring|17 23|17|f|f
2014|position|17 17|23|f|f
2019|time|1184|1083|f|f
2020|date_trunc|25 1114|1114|f|f
2021|date_part|25 1114|701|f|f
2023|jsonb_path_query_first_tz|3802 4072 3802 16|3802|f|f
2024|timestamp|1082|1114|f|f
2025|timestamp|1082 1083|1114|f|f
2026|pg_backend_pid||23|f|f
2027|timestamp|1184|1114|f|f
2028|timestamptz|1114|1184|f|f
2029|date|1114|1082|f|f
2030|jsonb_path_match_tz|3802 4072 3802 16|16|f|f
2031|timestamp_mi|1114 1114|1186|f|f
2032|timestamp_pl_interval|1114 1186|1114|f|f
2033|timestamp_mi_interval|1114 1186|1114|f|f
2034|pg_conf_load_time||1184|f|f
2035|timestamp_smaller|1114 1114|1114|f|f
2036|timestamp_larger|1114 1114|1114|f|f
2037|timezone|25 1266|1266|f|f
2038|timezone|1186 1266|1266|f|f
2039|timestamp_hash|1114|23|f|f
2041|overlaps|1114 1114 1114 1114|16|f|f
2042|overlaps|1114 1186 1114 1186|16|f|f
2043|overlaps|1114 1114 1114 1186|16|f|f
2044|overlaps|1114 1186 1114 1114|16|f|f
2045|timestamp_cmp|1114 1114|23|f|f
2046|time|1266|1083|f|f
2047|timetz|1083|1266|f|f
2048|isfinite|1114|16|f|f
2049|to_char|1114 25|25|f|f
2050|max|2277|2277|a|f
2052|timestamp_eq|1114 1114|16|f|f
2053|timestamp_ne|1114 1114|16|f|f
2054|timestamp_lt|1114 1114|16|f|f
2055|timestamp_le|1114 1114|16|f|f
2056|timestamp_ge|1114 1114|16|f|f
2057|timestamp_gt|1114 1114|16|f|f
2058|age|1114 1114|1186|f|f
2059|age|1114|1186|f|f
2069|timezone|25 1114|1184|f|f
2070|timezone|1186 1114|1184|f|f
2071|date_pl_interval|1082 1186|1114|f|f
2072|date_mi_interval|1082 1186|1114|f|f
2073|substring|25 25|25|f|f
2074|substring|25 25 25|25|f|f
2075|bit|20 23|1560|f|f
2076|int8|1560|20|f|f
2077|current_setting|25|25|f|f
2078|set_config|25 25 16|25|f|f
2079|pg_table_is_visible|26|16|f|f
2080|pg_type_is_visible|26|16|f|f
2081|pg_function_is_visible|26|16|f|f
2082|pg_operator_is_visible|26|16|f|f
2083|pg_opclass_is_visible|26|16|f|f
2084|pg_show_all_settings||2249|f|t
2085|substr|17 23 23|17|f|f
2086|substr|17 23|17|f|f
2087|replace|25 25 25|25|f|f
2088|split_part|25 25 23|25|f|f
2089|to_hex|23|25|f|f
2090|to_hex|20|25|f|f
2091|array_lower|2277 23|23|f|f
2092|array_upper|2277 23|23|f|f
2093|pg_conversion_is_visible|26|16|f|f
2096|pg_terminate_backend|23 20|16|f|f
2098|pg_get_functiondef|26|25|f|f
2100|avg|20|1700|a|f
2101|avg|23|1700|a|f
2102|avg|21|1700|a|f
2103|avg|1700|1700|a|f
2104|avg|700|701|a|f
2105|avg|701|701|a|f
2106|avg|1186|1186|a|f
2107|sum|20|1700|a|f
2108|sum|23|20|a|f
2109|sum|21|20|a|f
2110|sum|700|700|a|f
2111|sum|701|701|a|f
2112|sum|790|790|a|f
2113|sum|1186|1186|a|f
2114|sum|1700|1700|a|f
2115|max|20|20|a|f
2116|max|23|23|a|f
2117|max|21|21|a|f
2118|max|26|26|a|f
2119|max|700|700|a|f
2120|max|701|701|a|f
2121|pg_column_compression|2276|25|f|f
2122|max|1082|1082|a|f
2123|max|1083|1083|a|f
2124|max|1266|1266|a|f
2125|max|790|790|a|f
2126|max|1114|1114|a|f
2127|max|1184|1184|a|f
2128|max|1186|1186|a|f
2129|max|25|25|a|f
2130|max|1700|1700|a|f
2147|count|2276|20|a|f
2148|variance|20|1700|a|f
2149|variance|23|1700|a|f
2150|variance|21|1700|a|f
2151|variance|700|701|a|f
2152|variance|701|701|a|f
2153|variance|1700|1700|a|f
2154|stddev|20|1700|a|f
2155|stddev|23|1700|a|f
2156|stddev|21|1700|a|f
2157|stddev|700|701|a|f
2158|stddev|701|701|a|f
2159|stddev|1700|1700|a|f
2160|text_pattern_lt|25 25|16|f|f
2161|text_pattern_le|25 25|16|f|f
2162|pg_get_function_arguments|26|25|f|f
2163|text_pattern_ge|25 25|16|f|f
2164|text_pattern_gt|25 25|16|f|f
2165|pg_get_function_result|26|25|f|f
2167|ceiling|1700|1700|f|f
2168|pg_database_size|19|20|f|f
2169|power|1700 1700|1700|f|f
2170|width_bucket|1700 1700 1700 23|23|f|f
2171|pg_cancel_backend|23|16|f|f
2172|pg_backup_start|25 16|3220|f|f
2174|bpchar_pattern_lt|1042 1042|16|f|f
2175|bpchar_pattern_le|1042 1042|16|f|f
2176|array_length|2277 23|23|f|f
2177|bpchar_pattern_ge|1042 1042|16|f|f
2178|bpchar_pattern_gt|1042 1042|16|f|f
2181|has_sequence_privilege|19 25 25|16|f|f
2182|has_sequence_privilege|19 26 25|16|f|f
2183|has_sequence_privilege|26 25 25|16|f|f
2184|has_sequence_privilege|26 26 25|16|f|f
2185|has_sequence_privilege|25 25|16|f|f
2186|has_sequence_privilege|26 25|16|f|f
2232|pg_get_function_identity_arguments|26|25|f|f
2236|bit_and|21|21|a|f
2237|bit_or|21|21|a|f
2238|bit_and|23|23|a|f
2239|bit_or|23|23|a|f
2240|bit_and|20|20|a|f
2241|bit_or|20|20|a|f
2242|bit_and|1560|1560|a|f
2243|bit_or|1560|1560|a|f
2244|max|1042|1042|a|f
2246|fmgr_internal_validator|26|2278|f|f
2247|fmgr_c_validator|26|2278|f|f
2248|fmgr_sql_validator|26|2278|f|f
2250|has_database_privilege|19 25 25|16|f|f
2251|has_database_privilege|19 26 25|16|f|f
2252|has_database_privilege|26 25 25|16|f|f
2253|has_database_privilege|26 26 25|16|f|f
2254|has_database_privilege|25 25|16|f|f
2255|has_database_privilege|26 25|16|f|f
2256|has_function_privilege|19 25 25|16|f|f
2257|has_function_privilege|19 26 25|16|f|f
2258|has_function_privilege|26 25 25|16|f|f
2259|has_function_privilege|26 26 25|16|f|f
2260|has_function_privilege|25 25|16|f|f
2261|has_function_privilege|26 25|16|f|f
2262|has_language_privilege|19 25 25|16|f|f
2263|has_language_privilege|19 26 25|16|f|f
2264|has_language_privilege|26 25 25|16|f|f
2265|has_language_privilege|26 26 25|16|f|f
2266|has_language_privilege|25 25|16|f|f
2267|has_language_privilege|26 25|16|f|f
2268|has_schema_privilege|19 25 25|16|f|f
2269|has_schema_privilege|19 26 25|16|f|f
2270|has_schema_privilege|26 25 25|16|f|f
2271|has_schema_privilege|26 26 25|16|f|f
2272|has_schema_privilege|25 25|16|f|f
2273|has_schema_privilege|26 25|16|f|f
2282|pg_get_backend_memory_contexts||2249|f|t
2284|regexp_replace|25 25 25|25|f|f
2285|regexp_replace|25 25 25 25|25|f|f
2286|pg_total_relation_size|2205|20|f|f
2288|pg_size_pretty|20|25|f|f
2289|pg_options_to_table|1009|2249|f|t
2308|ceil|701|701|f|f
2309|floor|701|701|f|f
2310|sign|701|701|f|f
2311|md5|25|25|f|f
2316|postgresql_fdw_validator|1009 26|16|f|f
2319|pg_encoding_max_length|23|23|f|f
2320|ceiling|701|701|f|f
2321|md5|17|25|f|f
2322|pg_tablespace_size|26|20|f|f
2323|pg_tablespace_size|19|20|f|f
2324|pg_database_size|26|20|f|f
2325|pg_relation_size|2205|20|f|f
2331|unnest|2277|2283|f|t
2332|pg_relation_size|2205 25|20|f|f
2333|array_agg_transfn|2281 2776|2281|f|f
2334|array_agg_finalfn|2281 2776|2277|f|f
2335|array_agg|2776|2277|a|f
2338|date_lt_timestamp|1082 1114|16|f|f
2339|date_le_timestamp|1082 1114|16|f|f
2340|date_eq_timestamp|1082 1114|16|f|f
2341|date_gt_timestamp|1082 1114|16|f|f
2342|date_ge_timestamp|1082 1114|16|f|f
2343|date_ne_timestamp|1082 1114|16|f|f
2344|date_cmp_timestamp|1082 1114|23|f|f
2351|date_lt_timestamptz|1082 1184|16|f|f
2352|date_le_timestamptz|1082 1184|16|f|f
2353|date_eq_timestamptz|1082 1184|16|f|f
2354|date_gt_timestamptz|1082 1184|16|f|f
2355|date_ge_timestamptz|1082 1184|16|f|f
2356|date_ne_timestamptz|1082 1184|16|f|f
2357|date_cmp_timestamptz|1082 1184|23|f|f
2364|timestamp_lt_date|1114 1082|16|f|f
2365|timestamp_le_date|1114 1082|16|f|f
2366|timestamp_eq_date|1114 1082|16|f|f
2367|timestamp_gt_date|1114 1082|16|f|f
2368|timestamp_ge_date|1114 1082|16|f|f
2369|timestamp_ne_date|1114 1082|16|f|f
2370|timestamp_cmp_date|1114 1082|23|f|f
2377|timestamptz_lt_date|1184 1082|16|f|f
2378|timestamptz_le_date|1184 1082|16|f|f
2379|timestamptz_eq_date|1184 1082|16|f|f
2380|timestamptz_gt_date|1184 1082|16|f|f
2381|timestamptz_ge_date|1184 1082|16|f|f
2382|timestamptz_ne_date|1184 1082|16|f|f
2383|timestamptz_cmp_date|1184 1082|23|f|f
2390|has_tablespace_privilege|19 25 25|16|f|f
2391|has_tablespace_privilege|19 26 25|16|f|f
2392|has_tablespace_privilege|26 25 25|16|f|f
2393|has_tablespace_privilege|26 26 25|16|f|f
2394|has_tablespace_privilege|25 25|16|f|f
2395|has_tablespace_privilege|26 25|16|f|f
2462|sinh|701|701|f|f
2463|cosh|701|701|f|f
2464|tanh|701|701|f|f
2465|asinh|701|701|f|f
2466|acosh|701|701|f|f
2467|atanh|701|701|f|f
2504|pg_get_ruledef|26 16|25|f|f
2505|pg_get_viewdef|25 16|25|f|f
2506|pg_get_viewdef|26 16|25|f|f
2507|pg_get_indexdef|26 23 16|25|f|f
2508|pg_get_constraintdef|26 16|25|f|f
2509|pg_get_expr|194 26 16|25|f|f
2510|pg_prepared_statement||2249|f|t
2511|pg_cursor||2249|f|t
2512|float8_var_pop|1022|701|f|f
2513|float8_stddev_pop|1022|701|f|f
2514|numeric_var_pop|2281|1700|f|f
2515|booland_statefunc|16 16|16|f|f
2516|boolor_statefunc|16 16|16|f|f
2517|bool_and|16|16|a|f
2518|bool_or|16|16|a|f
2519|every|16|16|a|f
2520|timestamp_lt_timestamptz|1114 1184|16|f|f
2521|timestamp_le_timestamptz|1114 1184|16|f|f
2522|timestamp_eq_timestamptz|1114 1184|16|f|f
2523|timestamp_gt_timestamptz|1114 1184|16|f|f
2524|timestamp_ge_timestamptz|1114 1184|16|f|f
2525|timestamp_ne_timestamptz|1114 1184|16|f|f
2526|timestamp_cmp_timestamptz|1114 1184|23|f|f
2527|timestamptz_lt_timestamp|1184 1114|16|f|f
2528|timestamptz_le_timestamp|1184 1114|16|f|f
2529|timestamptz_eq_timestamp|1184 1114|16|f|f
2530|timestamptz_gt_timestamp|1184 1114|16|f|f
2531|timestamptz_ge_timestamp|1184 1114|16|f|f
2532|timestamptz_ne_timestamp|1184 1114|16|f|f
2533|timestamptz_cmp_timestamp|1184 1114|23|f|f
2546|interval_pl_date|1186 1082|1114|f|f
2547|interval_pl_timetz|1186 1266|1266|f|f
2548|interval_pl_timestamp|1186 1114|1114|f|f
2549|interval_pl_timestamptz|1186 1184|1184|f|f
2550|integer_pl_date|23 1082|1082|f|f
2556|pg_tablespace_databases|26|26|f|t
2557|bool|23|16|f|f
2558|int4|16|23|f|f
2559|lastval||20|f|f
2560|pg_postmaster_start_time||1184|f|f
2561|pg_blocking_pids|23|1007|f|f
2580|float8|3802|701|f|f
2596|numeric_stddev_pop|2281|1700|f|f
2599|pg_timezone_abbrevs||2249|f|t
2621|pg_reload_conf||16|f|f
2622|pg_rotate_logfile||16|f|f
2626|pg_sleep|701|2278|f|f
2631|int8pl_inet|20 869|869|f|f
2641|var_samp|20|1700|a|f
2642|var_samp|23|1700|a|f
2643|var_samp|21|1700|a|f
2644|var_samp|700|701|a|f
2645|var_samp|701|701|a|f
2646|var_samp|1700|1700|a|f
2647|transaction_timestamp||1184|f|f
2648|statement_timestamp||1184|f|f
2649|clock_timestamp||1184|f|f
2705|pg_has_role|19 19 25|16|f|f
2706|pg_has_role|19 26 25|16|f|f
2707|pg_has_role|26 19 25|16|f|f
2708|pg_has_role|26 26 25|16|f|f
2709|pg_has_role|19 25|16|f|f
2710|pg_has_role|26 25|16|f|f
2711|justify_interval|1186|1186|f|f
2712|stddev_samp|20|1700|a|f
2713|stddev_samp|23|1700|a|f
2714|stddev_samp|21|1700|a|f
2715|stddev_samp|700|701|a|f
2716|stddev_samp|701|701|a|f
2717|stddev_samp|1700|1700|a|f
2718|var_pop|20|1700|a|f
2719|var_pop|23|1700|a|f
2720|var_pop|21|1700|a|f
2721|var_pop|700|701|a|f
2722|var_pop|701|701|a|f
2723|var_pop|1700|1700|a|f
2724|stddev_pop|20|1700|a|f
2725|stddev_pop|23|1700|a|f
2726|stddev_pop|21|1700|a|f
2727|stddev_pop|700|701|a|f
2728|stddev_pop|701|701|a|f
2729|stddev_pop|1700|1700|a|f
2730|pg_get_triggerdef|26 16|25|f|f
2731|asind|701|701|f|f
2732|acosd|701|701|f|f
2733|atand|701|701|f|f
2734|atan2d|701 701|701|f|f
2735|sind|701|701|f|f
2736|cosd|701|701|f|f
2737|tand|701|701|f|f
2738|cotd|701|701|f|f
2739|pg_backup_stop|16|2249|f|f
2740|numeric_avg_serialize|2281|17|f|f
2741|numeric_avg_deserialize|17 2281|2281|f|f
2746|int8_avg_accum|2281 20|2281|f|f
2747|arrayoverlap|2277 2277|16|f|f
2748|arraycontains|2277 2277|16|f|f
2749|arraycontained|2277 2277|16|f|f
2763|regexp_matches|25 25|1009|f|t
2764|regexp_matches|25 25 25|1009|f|t
2765|regexp_split_to_table|25 25|25|f|t
2766|regexp_split_to_table|25 25 25|25|f|t
2767|regexp_split_to_array|25 25|1009|f|f
2768|regexp_split_to_array|25 25 25|1009|f|f
2785|int8_avg_combine|2281 2281|2281|f|f
2786|int8_avg_serialize|2281|17|f|f
2787|int8_avg_deserialize|17 2281|2281|f|f
2790|tidgt|27 27|16|f|f
2791|tidlt|27 27|16|f|f
2792|tidge|27 27|16|f|f
2793|tidle|27 27|16|f|f
2795|tidlarger|27 27|27|f|f
2796|tidsmaller|27 27|27|f|f
2797|max|27|27|a|f
2803|count||20|a|f
2804|int8inc_any|20 2276|20|f|f
2805|int8inc_float8_float8|20 701 701|20|f|f
2806|float8_regr_accum|1022 701 701|1022|f|f
2807|float8_regr_sxx|1022|701|f|f
2808|float8_regr_syy|1022|701|f|f
2809|float8_regr_sxy|1022|701|f|f
2810|float8_regr_avgx|1022|701|f|f
2811|float8_regr_avgy|1022|701|f|f
2812|float8_regr_r2|1022|701|f|f
2813|float8_regr_slope|1022|701|f|f
2814|float8_regr_intercept|1022|701|f|f
2815|float8_covar_pop|1022|701|f|f
2816|float8_covar_samp|1022|701|f|f
2817|float8_corr|1022|701|f|f
2818|regr_count|701 701|20|a|f
2819|regr_sxx|701 701|701|a|f
2820|regr_syy|701 701|701|a|f
2821|regr_sxy|701 701|701|a|f
2822|regr_avgx|701 701|701|a|f
2823|regr_avgy|701 701|701|a|f
2824|regr_r2|701 701|701|a|f
2825|regr_slope|701 701|701|a|f
2826|regr_intercept|701 701|701|a|f
2827|covar_pop|701 701|701|a|f
2828|covar_samp|701 701|701|a|f
2829|corr|701 701|701|a|f
2848|pg_switch_wal||3220|f|f
2849|pg_current_wal_lsn||3220|f|f
2852|pg_current_wal_insert_lsn||3220|f|f
2854|pg_my_temp_schema||26|f|f
2855|pg_is_other_temp_schema|26|16|f|f
2856|pg_timezone_names||2249|f|t
2858|numeric_avg_accum|2281 1700|2281|f|f
2880|pg_advisory_lock|20|2278|f|f
2881|pg_advisory_lock_shared|20|2278|f|f
2882|pg_try_advisory_lock|20|16|f|f
2883|pg_try_advisory_lock_shared|20|16|f|f
2884|pg_advisory_unlock|20|16|f|f
2885|pg_advisory_unlock_shared|20|16|f|f
2886|pg_advisory_lock|23 23|2278|f|f
2887|pg_advisory_lock_shared|23 23|2278|f|f
2888|pg_try_advisory_lock|23 23|16|f|f
2889|pg_try_advisory_lock_shared|23 23|16|f|f
2890|pg_advisory_unlock|23 23|16|f|f
2891|pg_advisory_unlock_shared|23 23|16|f|f
2892|pg_advisory_unlock_all||2278|f|f
2922|text|142|25|f|f
2923|table_to_xml|2205 16 16 25|142|f|f
2924|query_to_xml|25 16 16 25|142|f|f
2925|cursor_to_xml|1790 23 16 16 25|142|f|f
2926|table_to_xmlschema|2205 16 16 25|142|f|f
2927|query_to_xmlschema|25 16 16 25|142|f|f
2928|cursor_to_xmlschema|1790 16 16 25|142|f|f
2929|table_to_xml_and_xmlschema|2205 16 16 25|142|f|f
2930|query_to_xml_and_xmlschema|25 16 16 25|142|f|f
2931|xpath|25 142 1009|143|f|f
2932|xpath|25 142|143|f|f
2933|schema_to_xml|19 16 16 25|142|f|f
2934|schema_to_xmlschema|19 16 16 25|142|f|f
2935|schema_to_xml_and_xmlschema|19 16 16 25|142|f|f
2936|database_to_xml|16 16 25|142|f|f
2937|database_to_xmlschema|16 16 25|142|f|f
2938|database_to_xml_and_xmlschema|16 16 25|142|f|f
2943|txid_current||20|f|f
2944|txid_current_snapshot||2970|f|f
2946|txid_snapshot_xmax|2970|20|f|f
2947|txid_snapshot_xip|2970|20|f|t
2948|txid_visible_in_snapshot|20 2970|16|f|f
2954|uuid_lt|2950 2950|16|f|f
2955|uuid_le|2950 2950|16|f|f
2956|uuid_eq|2950 2950|16|f|f
2957|uuid_ge|2950 2950|16|f|f
2958|uuid_gt|2950 2950|16|f|f
2959|uuid_ne|2950 2950|16|f|f
2960|uuid_cmp|2950 2950|23|f|f
2963|uuid_hash|2950|23|f|f
2971|text|16|25|f|f
2981|record_eq|2249 2249|16|f|f
2982|record_ne|2249 2249|16|f|f
2983|record_lt|2249 2249|16|f|f
2984|record_gt|2249 2249|16|f|f
2985|record_le|2249 2249|16|f|f
2986|record_ge|2249 2249|16|f|f
2997|pg_table_size|2205|20|f|f
2998|pg_indexes_size|2205|20|f|f
2999|pg_relation_filenode|2205|26|f|f
3000|has_foreign_data_wrapper_privilege|19 25 25|16|f|f
3001|has_foreign_data_wrapper_privilege|19 26 25|16|f|f
3002|has_foreign_data_wrapper_privilege|26 25 25|16|f|f
3003|has_foreign_data_wrapper_privilege|26 26 25|16|f|f
3004|has_foreign_data_wrapper_privilege|25 25|16|f|f
3005|has_foreign_data_wrapper_privilege|26 25|16|f|f
3006|has_server_privilege|19 25 25|16|f|f
3007|has_server_privilege|19 26 25|16|f|f
3008|has_server_privilege|26 25 25|16|f|f
3009|has_server_privilege|26 26 25|16|f|f
3010|has_server_privilege|25 25|16|f|f
3011|has_server_privilege|26 25|16|f|f
3012|has_column_privilege|19 25 25 25|16|f|f
3013|has_column_privilege|19 25 21 25|16|f|f
3014|has_column_privilege|19 26 25 25|16|f|f
3015|has_column_privilege|19 26 21 25|16|f|f
3016|has_column_privilege|26 25 25 25|16|f|f
3017|has_column_privilege|26 25 21 25|16|f|f
3018|has_column_privilege|26 26 25 25|16|f|f
3019|has_column_privilege|26 26 21 25|16|f|f
3020|has_column_privilege|25 25 25|16|f|f
3021|has_column_privilege|25 21 25|16|f|f
3022|has_column_privilege|26 25 25|16|f|f
3023|has_column_privilege|26 21 25|16|f|f
3024|has_any_column_privilege|19 25 25|16|f|f
3025|has_any_column_privilege|19 26 25|16|f|f
3026|has_any_column_privilege|26 25 25|16|f|f
3027|has_any_column_privilege|26 26 25|16|f|f
3028|has_any_column_privilege|25 25|16|f|f
3029|has_any_column_privilege|26 25|16|f|f
3030|overlay|1560 1560 23 23|1560|f|f
3031|overlay|1560 1560 23|1560|f|f
3032|get_bit|1560 23|23|f|f
3033|set_bit|1560 23 23|1560|f|f
3034|pg_relation_filepath|2205|25|f|f
3035|pg_listening_channels||25|f|t
3036|pg_notify|25 25|2278|f|f
3049|xpath_exists|25 142 1009|16|f|f
3050|xpath_exists|25 142|16|f|f
3058|concat|2276|25|f|f
3059|concat_ws|25 2276|25|f|f
3060|left|25 23|25|f|f
3061|right|25 23|25|f|f
3062|reverse|25|25|f|f
3073|pg_is_wal_replay_paused||16|f|f
3078|pg_sequence_parameters|26|2249|f|f
3082|pg_available_extensions||2249|f|t
3083|pg_available_extension_versions||2249|f|t
3084|pg_extension_update_paths|19|2249|f|t
3086|pg_extension_config_dump|2205 25|2278|f|f
3089|pg_advisory_xact_lock|20|2278|f|f
3090|pg_advisory_xact_lock_shared|20|2278|f|f
3091|pg_try_advisory_xact_lock|20|16|f|f
3092|pg_try_advisory_xact_lock_shared|20|16|f|f
3093|pg_advisory_xact_lock|23 23|2278|f|f
3094|pg_advisory_xact_lock_shared|23 23|2278|f|f
3095|pg_try_advisory_xact_lock|23 23|16|f|f
3096|pg_try_advisory_xact_lock_shared|23 23|16|f|f
3100|row_number||20|w|f
3101|rank||20|w|f
3102|dense_rank||20|w|f
3103|percent_rank||701|w|f
3104|cume_dist||701|w|f
3105|ntile|23|23|w|f
3106|lag|2283|2283|w|f
3107|lag|2283 23|2283|w|f
3108|lag|5077 23 5077|5077|w|f
3109|lead|2283|2283|w|f
3110|lead|2283 23|2283|w|f
3111|lead|5077 23 5077|5077|w|f
3112|first_value|2283|2283|w|f
3113|last_value|2283|2283|w|f
3114|nth_value|2283 23|2283|w|f
3138|has_type_privilege|19 25 25|16|f|f
3139|has_type_privilege|19 26 25|16|f|f
3140|has_type_privilege|26 25 25|16|f|f
3141|has_type_privilege|26 26 25|16|f|f
3142|has_type_privilege|25 25|16|f|f
3143|has_type_privilege|26 25|16|f|f
3153|array_to_json|2277|114|f|f
3154|array_to_json|2277 16|114|f|f
3155|row_to_json|2249|114|f|f
3156|row_to_json|2249 16|114|f|f
3159|pg_get_viewdef|26 23|25|f|f
3162|pg_collation_for|2276|25|f|f
3163|pg_trigger_depth||23|f|f
3166|pg_size_pretty|1700|25|f|f
3167|array_remove|5078 5077|5078|f|f
3168|array_replace|5078 5077 5077|5078|f|f
3170|lo_lseek64|23 20 23|20|f|f
3171|lo_tell64|23|20|f|f
3172|lo_truncate64|23 20|23|f|f
3173|json_agg_transfn|2281 2283|2281|f|f
3174|json_agg_finalfn|2281|114|f|f
3175|json_agg|2283|114|a|f
3176|to_json|2283|114|f|f
3178|numeric_sum|2281|1700|f|f
3179|cardinality|2277|23|f|f
3180|json_object_agg_transfn|2281 2276 2276|2281|f|f
3181|record_image_eq|2249 2249|16|f|f
3182|record_image_ne|2249 2249|16|f|f
3183|record_image_lt|2249 2249|16|f|f
3184|record_image_gt|2249 2249|16|f|f
3185|record_image_le|2249 2249|16|f|f
3186|record_image_ge|2249 2249|16|f|f
3196|json_object_agg_finalfn|2281|114|f|f
3197|json_object_agg|2276 2276|114|a|f
3198|json_build_array|2276|114|f|f
3199|json_build_array||114|f|f
3200|json_build_object|2276|114|f|f
3201|json_build_object||114|f|f
3202|json_object|1009|114|f|f
3203|json_object|1009 1009|114|f|f
3204|json_to_record|114|2249|f|f
3205|json_to_recordset|114|2249|f|t
3207|jsonb_array_length|3802|23|f|f
3208|jsonb_each|3802|2249|f|t
3209|jsonb_populate_record|2283 3802|2283|f|f
3210|jsonb_typeof|3802|25|f|f
3214|jsonb_object_field_text|3802 25|25|f|f
3215|jsonb_array_element|3802 23|3802|f|f
3216|jsonb_array_element_text|3802 23|25|f|f
3217|jsonb_extract_path|3802 1009|3802|f|f
3218|width_bucket|5077 5078|23|f|f
3219|jsonb_array_elements|3802|3802|f|t
3259|generate_series|1700 1700 1700|1700|f|t
3260|generate_series|1700 1700|1700|f|t
3261|json_strip_nulls|114|114|f|f
3262|jsonb_strip_nulls|3802|3802|f|f
3263|jsonb_object|1009|3802|f|f
3264|jsonb_object|1009 1009|3802|f|f
3265|jsonb_agg_transfn|2281 2283|2281|f|f
3266|jsonb_agg_finalfn|2281|3802|f|f
3267|jsonb_agg|2283|3802|a|f
3268|jsonb_object_agg_transfn|2281 2276 2276|2281|f|f
3269|jsonb_object_agg_finalfn|2281|3802|f|f
3270|jsonb_object_agg|2276 2276|3802|a|f
3271|jsonb_build_array|2276|3802|f|f
3272|jsonb_build_array||3802|f|f
3273|jsonb_build_object|2276|3802|f|f
3274|jsonb_build_object||3802|f|f
3275|dist_ppoly|600 604|701|f|f
3277|array_position|5078 5077|23|f|f
3278|array_position|5078 5077 23|23|f|f
3279|array_positions|5078 5077|1007|f|f
3281|scale|1700|23|f|f
3290|dist_cpoint|718 600|701|f|f
3292|dist_polyp|604 600|701|f|f
3294|current_setting|25 16|25|f|f
3296|pg_notification_queue_usage||701|f|f
3298|row_security_active|26|16|f|f
3299|row_security_active|25|16|f|f
3301|jsonb_concat|3802 3802|3802|f|f
3302|jsonb_delete|3802 25|3802|f|f
3303|jsonb_delete|3802 23|3802|f|f
3304|jsonb_delete_path|3802 1009|3802|f|f
3305|jsonb_set|3802 1009 3802 16|3802|f|f
3306|jsonb_pretty|3802|25|f|f
3308|xidneq|28 28|16|f|f
3309|xidneqint4|28 23|16|f|f
3313|bernoulli|2281|3310|f|f
3314|system|2281|3310|f|f
3320|setweight|3614 18 1009|3614|f|f
3322|unnest|3614|2249|f|t
3324|int4_avg_combine|1016 1016|1016|f|f
3325|interval_combine|1187 1187|1187|f|f
3327|array_to_tsvector|1009|3614|f|f
3329|pg_show_all_file_settings||2249|f|t
3330|pg_current_wal_flush_lsn||3220|f|f
3334|pg_size_bytes|25|20|f|f
3335|numeric_serialize|2281|17|f|f
3336|numeric_deserialize|17 2281|2281|f|f
3337|numeric_avg_combine|2281 2281|2281|f|f
3338|numeric_poly_combine|2281 2281|2281|f|f
3339|numeric_poly_serialize|2281|17|f|f
3340|numeric_poly_deserialize|17 2281|2281|f|f
3341|numeric_combine|2281 2281|2281|f|f
3342|float8_regr_combine|1022 1022|1022|f|f
3343|jsonb_delete|3802 1009|3802|f|f
3344|cash_mul_int8|790 20|790|f|f
3345|cash_div_int8|790 20|790|f|f
3348|txid_current_if_assigned||20|f|f
3352|pg_get_partkeydef|26|25|f|f
3360|txid_status|20|25|f|f
3376|pg_safe_snapshot_blocking_pids|23|1007|f|f
3378|pg_isolation_test_session_is_blocked|23 1007|16|f|f
3382|pg_identify_object_as_address|26 26 23|2249|f|f
3387|int8_avg_accum_inv|2281 20|2281|f|f
3388|numeric_poly_sum|2281|1700|f|f
3389|numeric_poly_avg|2281|1700|f|f
3390|numeric_poly_var_pop|2281|1700|f|f
3391|numeric_poly_var_samp|2281|1700|f|f
3392|numeric_poly_stddev_pop|2281|1700|f|f
3393|numeric_poly_stddev_samp|2281|1700|f|f
3396|regexp_match|25 25|1009|f|f
3397|regexp_match|25 25 25|1009|f|f
3399|int8_mul_cash|20 790|790|f|f
3400|pg_config||2249|f|t
3401|pg_hba_file_rules||2249|f|t
3408|pg_get_partition_constraintdef|26|25|f|f
3409|time_hash_extended|1083 20|20|f|f
3410|timetz_hash_extended|1266 20|20|f|f
3411|timestamp_hash_extended|1114 20|20|f|f
3412|uuid_hash_extended|2950 20|20|f|f
3415|pg_get_statisticsobjdef|26|25|f|f
3416|jsonb_hash_extended|3802 20|20|f|f
3418|interval_hash_extended|1186 20|20|f|f
3419|sha224|17|17|f|f
3420|sha256|17|17|f|f
3421|sha384|17|17|f|f
3422|sha512|17|17|f|f
3423|pg_partition_tree|2205|2249|f|t
3424|pg_partition_root|2205|2205|f|f
3425|pg_partition_ancestors|2205|2205|f|t
3427|pg_mcv_list_items|5017|2249|f|t
3432|gen_random_uuid||2950|f|f
3434|gtsvector_options|2281|2278|f|f
3436|pg_promote|16 23|16|f|f
3441|pg_control_system||2249|f|f
3442|pg_control_checkpoint||2249|f|f
3443|pg_control_recovery||2249|f|f
3444|pg_control_init||2249|f|f
3445|pg_import_system_collations|4089|23|f|f
3448|pg_collation_actual_version|26|25|f|f
3449|numeric|3802|1700|f|f
3450|int2|3802|21|f|f
3451|int4|3802|23|f|f
3452|int8|3802|20|f|f
3453|float4|3802|700|f|f
3454|pg_filenode_relation|26 26|2205|f|f
3457|lo_from_bytea|26 17|26|f|f
3458|lo_get|26|17|f|f
3459|lo_get|26 20 23|17|f|f
3460|lo_put|26 20 17|2278|f|f
3461|make_timestamp|23 23 23 23 23 701|1114|f|f
3462|make_timestamptz|23 23 23 23 23 701|1184|f|f
3463|make_timestamptz|23 23 23 23 23 701 25|1184|f|f
3464|make_interval|23 23 23 23 23 23 701|1186|f|f
3465|jsonb_array_elements_text|3802|25|f|t
3475|jsonb_populate_recordset|2283 3802|2283|f|t
3476|to_regoperator|25|2204|f|f
3478|jsonb_object_field|3802 25|3802|f|f
3479|to_regprocedure|25|2202|f|f
3490|jsonb_to_record|3802|2249|f|f
3491|jsonb_to_recordset|3802|2249|f|t
3492|to_regoper|25|2203|f|f
3493|to_regtype|25|2206|f|f
3494|to_regproc|25|24|f|f
3495|to_regclass|25|2205|f|f
3496|bool_accum|2281 16|2281|f|f
3497|bool_accum_inv|2281 16|2281|f|f
3498|bool_alltrue|2281|16|f|f
3499|bool_anytrue|2281|16|f|f
3508|enum_eq|3500 3500|16|f|f
3509|enum_ne|3500 3500|16|f|f
3510|enum_lt|3500 3500|16|f|f
3511|enum_gt|3500 3500|16|f|f
3512|enum_le|3500 3500|16|f|f
3513|enum_ge|3500 3500|16|f|f
3514|enum_cmp|3500 3500|23|f|f
3524|enum_smaller|3500 3500|3500|f|f
3525|enum_larger|3500 3500|3500|f|f
3526|max|3500|3500|a|f
3528|enum_first|3500|3500|f|f
3529|enum_last|3500|3500|f|f
3530|enum_range|3500 3500|2277|f|f
3531|enum_range|3500|2277|f|f
3535|string_agg_transfn|2281 25 25|2281|f|f
3536|string_agg_finalfn|2281|25|f|f
3537|pg_describe_object|26 26 23|25|f|f
3538|string_agg|25 25|25|a|f
3539|format|25 2276|25|f|f
3540|format|25|25|f|f
3543|bytea_string_agg_transfn|2281 17 17|2281|f|f
3544|bytea_string_agg_finalfn|2281|17|f|f
3545|string_agg|17 17|17|a|f
3546|int8dec|20|20|f|f
3547|int8dec_any|20 2276|20|f|f
3548|numeric_accum_inv|2281 1700|2281|f|f
3549|interval_accum_inv|1187 1186|1187|f|f
3551|network_overlap|869 869|16|f|f
3556|bool|3802|16|f|f
3562|network_larger|869 869|869|f|f
3563|network_smaller|869 869|869|f|f
3564|max|869|869|a|f
3566|pg_event_trigger_dropped_objects||2249|f|t
3567|int2_accum_inv|2281 21|2281|f|f
3568|int4_accum_inv|2281 23|2281|f|f
3569|int8_accum_inv|2281 20|2281|f|f
3570|int2_avg_accum_inv|1016 21|1016|f|f
3571|int4_avg_accum_inv|1016 23|1016|f|f
3572|int2int4_sum|1016|20|f|f
3579|jsonb_insert|3802 1009 3802 16|3802|f|f
3583|pg_last_committed_xact||2249|f|f
3623|strip|3614|3614|f|f
3624|setweight|3614 18|3614|f|f
3648|gtsvector_compress|2281|2281|f|f
3649|gtsvector_decompress|2281|2281|f|f
3650|gtsvector_picksplit|2281 2281|2281|f|f
3651|gtsvector_union|2281 2281|3642|f|f
3652|gtsvector_same|3642 3642 2281|2281|f|f
3653|gtsvector_penalty|2281 2281 2281|2281|f|f
3654|gtsvector_consistent|2281 3614 21 26 2281|16|f|f
3672|numnode|3615|23|f|f
3673|querytree|3615|25|f|f
3691|tsq_mcontains|3615 3615|16|f|f
3692|tsq_mcontained|3615 3615|16|f|f
3695|gtsquery_compress|2281|2281|f|f
3696|starts_with|25 25|16|f|f
3697|gtsquery_picksplit|2281 2281|2281|f|f
3698|gtsquery_union|2281 2281|20|f|f
3699|gtsquery_same|20 20 2281|2281|f|f
3700|gtsquery_penalty|2281 2281 2281|2281|f|f
3701|gtsquery_consistent|2281 3615 21 26 2281|16|f|f
3711|length|3614|23|f|f
3717|prsd_start|2281 23|2281|f|f
3718|prsd_nexttoken|2281 2281 2281|2281|f|f
3719|prsd_end|2281|2278|f|f
3720|prsd_headline|2281 2281 3615|2281|f|f
3721|prsd_lextype|2281|2281|f|f
3725|dsimple_init|2281|2281|f|f
3726|dsimple_lexize|2281 2281 2281 2281|2281|f|f
3728|dsynonym_init|2281|2281|f|f
3729|dsynonym_lexize|2281 2281 2281 2281|2281|f|f
3731|dispell_init|2281|2281|f|f
3732|dispell_lexize|2281 2281 2281 2281|2281|f|f
3740|thesaurus_init|2281|2281|f|f
3741|thesaurus_lexize|2281 2281 2281 2281|2281|f|f
3745|to_tsvector|3734 25|3614|f|f
3746|to_tsquery|3734 25|3615|f|f
3747|plainto_tsquery|3734 25|3615|f|f
3749|to_tsvector|25|3614|f|f
3750|to_tsquery|25|3615|f|f
3751|plainto_tsquery|25|3615|f|f
3756|pg_ts_parser_is_visible|26|16|f|f
3757|pg_ts_dict_is_visible|26|16|f|f
3758|pg_ts_config_is_visible|26|16|f|f
3759|get_current_ts_config||3734|f|f
3768|pg_ts_template_is_visible|26|16|f|f
3778|pg_tablespace_location|26|25|f|f
3781|pg_get_replication_slots||2249|f|t
3787|to_jsonb|2283|3802|f|f
3790|gtsvector_consistent|2281 3642 23 26 2281|16|f|f
3793|gtsquery_consistent|2281 2281 23 26 2281|16|f|f
3800|pg_current_logfile||25|f|f
3801|pg_current_logfile|25|25|f|f
3808|pg_get_function_arg_default|26 23|25|f|f
3809|pg_export_snapshot||25|f|f
3810|pg_is_in_recovery||16|f|f
3815|pg_collation_is_visible|26|16|f|f
3816|array_typanalyze|2281|16|f|f
3819|pg_get_multixact_members|28|2249|f|t
3820|pg_last_wal_receive_lsn||3220|f|f
3821|pg_last_wal_replay_lsn||3220|f|f
3822|cash_div_cash|790 790|701|f|f
3823|numeric|790|1700|f|f
3829|pg_opfamily_is_visible|26|16|f|f
3830|pg_last_xact_replay_timestamp||1184|f|f
3839|pg_identify_object|26 26 23|2249|f|f
3842|pg_relation_is_updatable|2205 16|23|f|f
3843|pg_column_is_updatable|2205 21 16|16|f|f
3844|numrange|1700 1700|3906|f|f
3845|numrange|1700 1700 25|3906|f|f
3846|make_date|23 23 23|1082|f|f
3847|make_time|23 23 701|1083|f|f
3848|lower|3831|2283|f|f
3849|upper|3831|2283|f|f
3850|isempty|3831|16|f|f
3851|lower_inc|3831|16|f|f
3852|upper_inc|3831|16|f|f
3853|lower_inf|3831|16|f|f
3854|upper_inf|3831|16|f|f
3860|elem_contained_by_range|2283 3831|16|f|f
3915|daterange_canonical|3912|3912|f|f
3923|int8range_subdiff|20 20|701|f|f
3924|numrange_subdiff|1700 1700|701|f|f
3925|daterange_subdiff|1082 1082|701|f|f
3928|int8range_canonical|3926|3926|f|f
3929|tsrange_subdiff|1114 1114|701|f|f
3930|tstzrange_subdiff|1184 1184|701|f|f
3931|jsonb_object_keys|3802|25|f|t
3932|jsonb_each_text|3802|2249|f|t
3933|tsrange|1114 1114|3908|f|f
3934|tsrange|1114 1114 25|3908|f|f
3935|pg_sleep_for|1186|2278|f|f
3936|pg_sleep_until|1184|2278|f|f
3937|tstzrange|1184 1184|3910|f|f
3938|tstzrange|1184 1184 25|3910|f|f
3939|mxid_age|28|23|f|f
3940|jsonb_extract_path_text|3802 1009|25|f|f
3941|daterange|1082 1082|3912|f|f
3942|daterange|1082 1082 25|3912|f|f
3943|acldefault|18 26|1034|f|f
3945|int8range|20 20|3926|f|f
3946|int8range|20 20 25|3926|f|f
3947|json_object_field|114 25|114|f|f
3948|json_object_field_text|114 25|25|f|f
3949|json_array_element|114 23|114|f|f
3950|json_array_element_text|114 23|25|f|f
3951|json_extract_path|114 1009|114|f|f
3953|json_extract_path_text|114 1009|25|f|f
3954|pg_get_object_address|25 1009 1009|2249|f|f
3955|json_array_elements|114|114|f|t
3956|json_array_length|114|23|f|f
3957|json_object_keys|114|25|f|t
3958|json_each|114|2249|f|t
3959|json_each_text|114|2249|f|t
3960|json_populate_record|2283 114 16|2283|f|f
3961|json_populate_recordset|2283 114 16|2283|f|t
3968|json_typeof|114|25|f|f
3969|json_array_elements_text|114|25|f|t
3970|ordered_set_transition|2281 2276|2281|f|f
3971|ordered_set_transition_multi|2281 2276|2281|f|f
3972|percentile_disc|701 2283|2283|a|f
3973|percentile_disc_final|2281 701 2283|2283|f|f
3974|percentile_cont|701 701|701|a|f
3975|percentile_cont_float8_final|2281 701|701|f|f
3976|percentile_cont|701 1186|1186|a|f
3977|percentile_cont_interval_final|2281 701|1186|f|f
3978|percentile_disc|1022 2283|2277|a|f
3979|percentile_disc_multi_final|2281 1022 2283|2277|f|f
3980|percentile_cont|1022 701|1022|a|f
3981|percentile_cont_float8_multi_final|2281 1022|1022|f|f
3982|percentile_cont|1022 1186|1187|a|f
3983|percentile_cont_interval_multi_final|2281 1022|1187|f|f
3984|mode|2283|2283|a|f
3985|mode_final|2281 2283|2283|f|f
3986|rank|2276|20|a|f
3987|rank_final|2281 2276|20|f|f
3988|percent_rank|2276|701|a|f
3989|percent_rank_final|2281 2276|701|f|f
3990|cume_dist|2276|701|a|f
3991|cume_dist_final|2281 2276|701|f|f
3992|dense_rank|2276|20|a|f
3993|dense_rank_final|2281 2276|20|f|f
4005|jsonb_path_exists|3802 4072 3802 16|16|f|f
4006|jsonb_path_query|3802 4072 3802 16|3802|f|t
4007|jsonb_path_query_array|3802 4072 3802 16|3802|f|f
4008|jsonb_path_query_first|3802 4072 3802 16|3802|f|f
4009|jsonb_path_match|3802 4072 3802 16|16|f|f
4010|jsonb_path_exists_opr|3802 4072|16|f|f
4011|jsonb_path_match_opr|3802 4072|16|f|f
4032|pg_sequence_last_value|2205|20|f|f
4038|jsonb_ne|3802 3802|16|f|f
4039|jsonb_lt|3802 3802|16|f|f
4040|jsonb_gt|3802 3802|16|f|f
4041|jsonb_le|3802 3802|16|f|f
4042|jsonb_ge|3802 3802|16|f|f
4043|jsonb_eq|3802 3802|16|f|f
4044|jsonb_cmp|3802 3802|23|f|f
4045|jsonb_hash|3802|23|f|f
4046|jsonb_contains|3802 3802|16|f|f
4047|jsonb_exists|3802 25|16|f|f
4048|jsonb_exists_any|3802 1009|16|f|f
4049|jsonb_exists_all|3802 1009|16|f|f
4050|jsonb_contained|3802 3802|16|f|f
4051|array_agg_array_transfn|2281 2277|2281|f|f
4052|array_agg_array_finalfn|2281 2277|2277|f|f
4053|array_agg|2277|2277|a|f
4067|bound_box|603 603|603|f|f
4086|to_regnamespace|25|4089|f|f
4093|to_regrole|25|4096|f|f
4099|pg_rotate_logfile_old||16|f|f
4112|trunc|774|774|f|f
4126|in_range|20 20 20 16 16|16|f|f
4127|in_range|23 23 20 16 16|16|f|f
4128|in_range|23 23 23 16 16|16|f|f
4129|in_range|23 23 21 16 16|16|f|f
4130|in_range|21 21 20 16 16|16|f|f
4131|in_range|21 21 23 16 16|16|f|f
4132|in_range|21 21 21 16 16|16|f|f
4133|in_range|1082 1082 1186 16 16|16|f|f
4134|in_range|1114 1114 1186 16 16|16|f|f
4135|in_range|1184 1184 1186 16 16|16|f|f
4136|in_range|1186 1186 1186 16 16|16|f|f
4137|in_range|1083 1083 1186 16 16|16|f|f
4138|in_range|1266 1266 1186 16 16|16|f|f
4139|in_range|701 701 701 16 16|16|f|f
4140|in_range|700 700 701 16 16|16|f|f
4141|in_range|1700 1700 1700 16 16|16|f|f
4189|max|3220|3220|a|f
4195|to_regcollation|25|4191|f|f
4209|to_tsvector|3802|3614|f|f
4210|to_tsvector|114|3614|f|f
4211|to_tsvector|3734 3802|3614|f|f
4212|to_tsvector|3734 114|3614|f|f
4213|jsonb_to_tsvector|3802 3802|3614|f|f
4214|jsonb_to_tsvector|3734 3802 3802|3614|f|f
4215|json_to_tsvector|114 3802|3614|f|f
4216|json_to_tsvector|3734 114 3802|3614|f|f
4220|pg_copy_physical_replication_slot|19 19 16|2249|f|f
4221|pg_copy_physical_replication_slot|19 19|2249|f|f
4222|pg_copy_logical_replication_slot|19 19 16 19|2249|f|f
4223|pg_copy_logical_replication_slot|19 19 16|2249|f|f
4224|pg_copy_logical_replication_slot|19 19|2249|f|f
4235|lower|4537|2283|f|f
4236|upper|4537|2283|f|f
4237|isempty|4537|16|f|f
4238|lower_inc|4537|16|f|f
4239|upper_inc|4537|16|f|f
4240|lower_inf|4537|16|f|f
4241|upper_inf|4537|16|f|f
4252|elem_contained_by_multirange|2283 4537|16|f|f
4280|int4multirange||4451|f|f
4281|int4multirange|3904|4451|f|f
4282|int4multirange|3905|4451|f|f
4283|nummultirange||4532|f|f
4284|nummultirange|3906|4532|f|f
4285|nummultirange|3907|4532|f|f
4286|tsmultirange||4533|f|f
4287|tsmultirange|3908|4533|f|f
4288|tsmultirange|3909|4533|f|f
4289|tstzmultirange||4534|f|f
4290|tstzmultirange|3910|4534|f|f
4291|tstzmultirange|3911|4534|f|f
4292|datemultirange||4535|f|f
4293|datemultirange|3912|4535|f|f
4294|datemultirange|3913|4535|f|f
4295|int8multirange||4536|f|f
4296|int8multirange|3926|4536|f|f
4297|int8multirange|3927|4536|f|f
4350|normalize|25 25|25|f|f
4351|is_normalized|25 25|16|f|f
4543|pg_log_backend_memory_contexts|23|16|f|f
4566|pg_event_trigger_table_rewrite_oid||26|f|f
4567|pg_event_trigger_table_rewrite_reason||23|f|f
4568|pg_event_trigger_ddl_commands||2249|f|t
5001|phraseto_tsquery|25|3615|f|f
5006|phraseto_tsquery|3734 25|3615|f|f
5007|websearch_to_tsquery|3734 25|3615|f|f
5009|websearch_to_tsquery|25|3615|f|f
5023|numeric_pl_pg_lsn|1700 3220|3220|f|f
5028|satisfies_hash_partition|26 23 23 2276|16|f|f
5034|xid8lt|5069 5069|16|f|f
5035|xid8gt|5069 5069|16|f|f
5036|xid8le|5069 5069|16|f|f
5037|xid8ge|5069 5069|16|f|f
5042|min_scale|1700|23|f|f
5043|trim_scale|1700|1700|f|f
5044|gcd|23 23|23|f|f
5045|gcd|20 20|20|f|f
5046|lcm|23 23|23|f|f
5047|lcm|20 20|20|f|f
5048|gcd|1700 1700|1700|f|f
5049|lcm|1700 1700|1700|f|f
5052|pg_get_shmem_allocations||2249|f|t
5054|jsonb_set_lax|3802 1009 3802 16 25|3802|f|f
5059|pg_current_xact_id||5069|f|f
5060|pg_current_xact_id_if_assigned||5069|f|f
5061|pg_current_snapshot||5038|f|f
5063|pg_snapshot_xmax|5038|5069|f|f
5064|pg_snapshot_xip|5038|5069|f|t
5065|pg_visible_in_snapshot|5069 5038|16|f|f
5071|xid|5069|28|f|f
5084|xid8eq|5069 5069|16|f|f
5085|xid8ne|5069 5069|16|f|f
5096|xid8cmp|5069 5069|23|f|f
5097|xid8_larger|5069 5069|5069|f|f
5098|xid8_smaller|5069 5069|5069|f|f
5099|max|5069|5069|a|f
6014|pg_show_replication_origin_status||2249|f|t
6119|pg_get_publication_tables|25|2249|f|t
6120|pg_get_replica_identity_index|2205|2205|f|f
6121|pg_relation_is_publishable|2205|16|f|f
6159|pg_get_catalog_foreign_keys||2249|f|t
6160|string_to_table|25 25|25|f|t
6161|string_to_table|25 25 25|25|f|t
6162|bit_count|1560|20|f|f
6163|bit_count|17|20|f|f
6164|bit_xor|21|21|a|f
6165|bit_xor|23|23|a|f
6166|bit_xor|20|20|a|f
6167|bit_xor|1560|1560|a|f
6172|trim_array|2277 23|2277|f|f
6173|pg_get_statisticsobjdef_expressions|26|1009|f|f
6174|pg_get_statisticsobjdef_columns|26|25|f|f
6195|ltrim|17 17|17|f|f
6196|rtrim|17 17|17|f|f
6197|pg_get_function_sqlbody|26|25|f|f
6198|unistr|25|25|f|f
6199|extract|25 1082|1700|f|f
6200|extract|25 1083|1700|f|f
6201|extract|25 1266|1700|f|f
6202|extract|25 1114|1700|f|f
6203|extract|25 1184|1700|f|f
6204|extract|25 1186|1700|f|f
6205|has_parameter_privilege|19 25 25|16|f|f
6206|has_parameter_privilege|26 25 25|16|f|f
6207|has_parameter_privilege|25 25|16|f|f
6224|pg_get_wal_resource_managers||2249|f|t
6240|pg_settings_get_flags|25|1009|f|f
6241|pg_stop_making_pinned_objects||2278|f|f
6249|pg_database_collation_actual_version|26|25|f|f
6250|pg_ident_file_mappings||2249|f|t
6251|regexp_replace|25 25 25 23 23 25|25|f|f
6252|regexp_replace|25 25 25 23 23|25|f|f
6253|regexp_replace|25 25 25 23|25|f|f
6254|regexp_count|25 25|23|f|f
6255|regexp_count|25 25 23|23|f|f
6256|regexp_count|25 25 23 25|23|f|f
6257|regexp_instr|25 25|23|f|f
6258|regexp_instr|25 25 23|23|f|f
6259|regexp_instr|25 25 23 23|23|f|f
6260|regexp_instr|25 25 23 23 23|23|f|f
6261|regexp_instr|25 25 23 23 23 25|23|f|f
6262|regexp_instr|25 25 23 23 23 25 23|23|f|f
6263|regexp_like|25 25|16|f|f
6264|regexp_like|25 25 25|16|f|f
6265|regexp_substr|25 25|25|f|f
6266|regexp_substr|25 25 23|25|f|f
6267|regexp_substr|25 25 23 23|25|f|f
6268|regexp_substr|25 25 23 23 25|25|f|f
6269|regexp_substr|25 25 23 23 25 23|25|f|f
`

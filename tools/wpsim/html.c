// SPDX-License-Identifier: MIT
/*
 * tools/wpsim/html.c - `wpsim run FILE.litmus --schedule S --html OUT`:
 * one replayed execution as a self-contained page (inline CSS and
 * JavaScript, nothing fetched): a lane per task, a row per step with its
 * virtual time, the kernel functions its task was in at the step's
 * access (fgraph.c), its events, the calls and returns it made, and what
 * it changed in the shared state (folio flags, xarray marks, PTE bits,
 * counters: trace.c's summary) highlighted; the scenario's calls and
 * returns as banners; the failing step and its message marked.  Filters
 * by task, function and object, "only steps that change state", and a
 * click on a function in a nesting collapses that call to one row.  The
 * URL's fragment presets the filters: #fn=NAME&obj=NAME&only=1&hide=TASK.
 *
 * Output is deterministic (no wall-clock time, no pointers): the same
 * schedule writes the same bytes, so docs/ keeps generated pages that
 * tests/docs/doc-commands.py regenerates and compares.
 */
#include "tools/wpsim/html.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/clock.h"
#include "tools/wpsim/fgraph.h"

static void esc(FILE *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len && s[i]; i++) {
		switch (s[i]) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		default:
			fputc(s[i], out);
		}
	}
}

static void esc_str(FILE *out, const char *s)
{
	esc(out, s, strlen(s));
}

/* An event as --explain prints it, without its step and task columns. */
static char *event_text(const struct sim_event *ev)
{
	char *text = NULL, *p;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		abort();
	wpsim_print_event_timed(m, ev, false);
	fclose(m);
	p = text + strspn(text, " ");		/* step */
	p += strcspn(p, " ");
	p += strspn(p, " ");			/* task */
	p += strcspn(p, " ");
	p += strspn(p, " ");
	memmove(text, p, strlen(p) + 1);
	len = strlen(text);
	while (len && (text[len - 1] == '\n' || text[len - 1] == ' '))
		text[--len] = '\0';
	return text;
}

static const char style[] =
"body{font:13px/1.35 system-ui,sans-serif;margin:0;color:#1d1d1f}"
"header{padding:10px 16px;background:#f4f4f6;border-bottom:1px solid #ccc}"
"h1{font-size:17px;margin:0 0 4px}code,.mono{font-family:ui-monospace,"
"monospace;font-size:12px}"
".fail-box{margin:8px 0;padding:6px 10px;border:2px solid #c00;"
"background:#fee;color:#600;font-weight:600}"
".ok-box{margin:8px 0;padding:6px 10px;border:1px solid #393;"
"background:#efe}"
"#controls{position:sticky;top:0;background:#fff;z-index:2;padding:6px 16px;"
"border-bottom:1px solid #ddd}#controls label{margin-right:10px}"
"#controls input[type=text]{width:14em}"
"table{border-collapse:collapse;width:100%}"
"th{position:sticky;top:38px;background:#e8e8ee;z-index:1;text-align:left;"
"padding:3px 6px;border-bottom:1px solid #bbb}"
"td{vertical-align:top;padding:2px 6px;border-bottom:1px solid #eee}"
"td.n,td.t{color:#777;white-space:nowrap;font-family:ui-monospace,"
"monospace;font-size:12px}"
"td.lane{border-left:1px solid #eee;min-width:18em}"
".nest{color:#357;font-size:11px}.fn{cursor:pointer;"
"border-bottom:1px dotted #357}.fn:hover{background:#def}"
".ev{font-family:ui-monospace,monospace;font-size:12px;white-space:pre}"
".calls{color:#555;font-size:11px;font-family:ui-monospace,monospace}"
".chg{background:#fff3b0;border-left:3px solid #e0a800;padding:1px 4px;"
"margin-top:2px;font-family:ui-monospace,monospace;font-size:12px;"
"white-space:pre-wrap}"
"tr.op td{background:#eef4ff;color:#124;font-weight:600}"
"tr.fail td{background:#fee}tr.fail td.lane.own{border:2px solid #c00}"
".failmsg{color:#900;font-weight:700}"
".collapsed-note{color:#777;font-style:italic}";

static const char script[] =
"(function(){"
"var rows=[].slice.call(document.querySelectorAll('tr.step,tr.op'));"
"var collapsed={};"
"function on(id){return document.getElementById(id);}"
"function apply(){"
" var tasks={};[].forEach.call(document.querySelectorAll('.taskbox'),"
"  function(b){tasks[b.value]=b.checked;});"
" var fn=on('fn').value.trim(),obj=on('obj').value.trim(),"
"  only=on('only').checked;"
" rows.forEach(function(r){"
"  var show=tasks[r.dataset.task]!==false;"
"  if(r.classList.contains('step')){"
"   if(fn&&r.dataset.fn.indexOf(fn)<0)show=false;"
"   if(obj&&r.dataset.obj.indexOf(obj)<0)show=false;"
"   if(only&&r.dataset.chg!=='1'&&!r.classList.contains('fail'))"
"    show=false;"
"   var cs=r.dataset.calls?r.dataset.calls.split(' '):[];"
"   cs.forEach(function(c){if(collapsed[c]&&collapsed[c]!==r)show=false;});"
"  }else if(fn||obj){show=false;}"
"  r.hidden=!show;});"
" var n=0;rows.forEach(function(r){if(!r.hidden)n++;});"
" on('shown').textContent=n+' of '+rows.length+' rows shown';}"
"document.addEventListener('click',function(e){"
" var f=e.target.closest('.fn');if(!f)return;"
" var c=f.dataset.call,row=f.closest('tr');"
" if(collapsed[c]){delete collapsed[c];}else{"
"  var first=null;rows.forEach(function(r){if(!first&&r.dataset.calls&&"
"   r.dataset.calls.split(' ').indexOf(c)>=0)first=r;});collapsed[c]=first||row;}"
" apply();});"
"['fn','obj'].forEach(function(i){on(i).addEventListener('input',apply);});"
"document.addEventListener('change',apply);"
"on('expand').addEventListener('click',function(){collapsed={};apply();});"
"location.hash.slice(1).split('&').forEach(function(kv){"
" var p=kv.split('='),v=decodeURIComponent(p[1]||'');"
" if(p[0]==='fn'||p[0]==='obj')on(p[0]).value=v;"
" if(p[0]==='only')on('only').checked=v==='1';"
" if(p[0]==='hide')[].forEach.call(document.querySelectorAll('.taskbox'),"
"  function(b){if(b.value===v)b.checked=false;});});"
"apply();})();";

/* Per task: the call instances open, for data-calls and collapse ids. */
struct open_calls {
	uint32_t id[WPSIM_FG_DEPTH_MAX];
	const char *name[WPSIM_FG_DEPTH_MAX];
	unsigned int depth;
};

static void op_banners(FILE *out, const struct wpsim_exec *x, uint32_t step,
		       bool returns)
{
	const struct wpsim_scenario *sc = x->sc;

	for (size_t th = 0; th < sc->threads_count; th++) {
		for (size_t i = 0; i < sc->threads[th].runs; i++) {
			const struct wpsim_span *sp = &x->spans[th][i];
			const char *text = sc->threads[th].stmts[
				sc->threads[th].run_stmt[i]].text;

			if (returns ? !(sp->done && sp->end_step == step) :
			    !(sp->started && sp->start_step == step))
				continue;
			fprintf(out, "<tr class=\"op\" data-task=\"%d\"><td "
				"class=\"n\"></td><td class=\"t\">%.3f</td>"
				"<td colspan=\"%u\">P%zu %s ", sp->task,
				(double)(returns ? sp->end_ns : sp->start_ns) /
				1000.0, sim_exec_task_count(), th,
				returns ? "returns from" : "calls");
			esc_str(out, text);
			if (returns)
				fprintf(out, ": %lld", (long long)sp->ret);
			fputs("</td></tr>\n", out);
		}
	}
}

/*
 * Long (~200 lines) for a reason: it writes the page top to bottom (head,
 * inline style and script, lanes, steps, the invariant), and the page's
 * order is easiest to check against the output when the code has it.
 */
int wpsim_html_write(const char *path, const struct wpsim_replayed *r)
{
	const struct wpsim_exec *x = r->x;
	const struct sim_outcome *o = r->o;
	const struct sim_event *ev;
	const uint64_t *start_ns = sim_exec_step_start_ns();
	uint32_t tasks = sim_exec_task_count();
	struct open_calls *open_calls = calloc(tasks + 1, sizeof(*open_calls));
	struct wpsim_fgraph g;
	char variant[256];
	uint32_t call_ids = 0;
	size_t note = 0;
	FILE *out = fopen(path, "w");

	if (!out || !open_calls) {
		fprintf(stderr, "wpsim: --html %s: %s\n", path,
			strerror(errno));
		free(open_calls);
		return -1;
	}
	sim_exec_events(&ev);
	wpsim_fgraph_build(&g, o->steps);
	wpsim_variant_format(variant, sizeof(variant), &x->variant, NULL, " ");
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8"
	      "\">\n<title>wpsim: ", out);
	esc_str(out, x->sc->scn->name);
	fprintf(out, "</title>\n<style>%s</style></head>\n<body>\n<header>\n"
		"<h1>", style);
	esc_str(out, x->sc->scn->name);
	fputs(" <span class=\"mono\">", out);
	esc_str(out, variant);
	fputs("</span></h1>\n<div>", out);
	esc_str(out, x->sc->scn->description);
	fputs("</div>\n<div class=\"mono\">file ", out);
	esc_str(out, x->sc->path);
	fprintf(out, "; %" PRIu64 " steps, %u preemptions; virtual time "
		"ends at "
		"%.3f us on %u CPU(s)</div>\n<div class=\"mono\">replay: ",
		o->steps, o->preemptions, (double)sim_exec_end_ns() / 1000.0,
		sim_clock_config()->cpus);
	esc_str(out, r->replay);
	fputs("</div>\n<div class=\"mono\">final state: ", out);
	esc_str(out, r->final_state);
	if (x->sc->condition_text) {
		fputs("<br>condition ", out);
		esc_str(out, x->sc->condition_text);
		fputs(": ", out);
		esc_str(out, r->condition);
	}
	fputs("</div>\n", out);
	if (o->kind != SIM_OK) {
		fprintf(out, "<div class=\"fail-box\" id=\"failure\">FAIL %s at "
			"step %" PRIu64 ": ", sim_failure_kind_name(o->kind),
			o->steps ? o->steps - 1 : 0);
		esc_str(out, o->message);
		fputs("</div>\n", out);
	} else {
		fputs("<div class=\"ok-box\">outcome: ok</div>\n", out);
	}
	if (!wpsim_ftrace_names_available())
		fputs("<div>kernel functions: not named (no symbol table "
		      "in this binary)</div>\n", out);
	fputs("<details><summary>initial state</summary><pre>", out);
	esc_str(out, r->initial ? r->initial : "");
	fputs("</pre></details>\n</header>\n<div id=\"controls\">tasks: ", out);
	for (uint32_t t = 0; t < tasks; t++) {
		fprintf(out, "<label><input type=\"checkbox\" class=\"taskbox\" "
			"value=\"%u\" checked> ", t);
		esc_str(out, sim_exec_task_name(t));
		fputs("</label>", out);
	}
	fputs(" function <input type=\"text\" id=\"fn\" placeholder=\"e.g. "
	      "folio_clear_dirty_for_io\"> object <input type=\"text\" "
	      "id=\"obj\" placeholder=\"e.g. folio1.flags\"> <label><input "
	      "type=\"checkbox\" id=\"only\"> only steps that change state"
	      "</label> <button id=\"expand\">expand all</button> <span "
	      "id=\"shown\"></span></div>\n<table id=\"lanes\">\n<thead><tr>"
	      "<th>step</th><th>t (us)</th>", out);
	for (uint32_t t = 0; t < tasks; t++) {
		fprintf(out, "<th class=\"lane\" data-lane=\"%u\">", t);
		esc_str(out, sim_exec_task_name(t));
		fputs("</th>", out);
	}
	fputs("</tr></thead>\n<tbody>\n", out);
	for (uint32_t s = 0; s < g.steps_count; s++) {
		const struct wpsim_fg_step *st = &g.steps[s];
		struct open_calls *oc = &open_calls[st->task < tasks ?
						    st->task : tasks];
		bool failing = o->kind != SIM_OK && s + 1 == o->steps;
		const char *chg = NULL;
		size_t chg_len = 0;

		for (; note < r->notes_count && r->notes[note].step < s; note++)
			;
		if (note < r->notes_count && r->notes[note].step == s) {
			chg = r->notes[note].text;
			chg_len = r->notes[note].len;
		}
		fprintf(out, "<tr class=\"step%s\" id=\"step%u\" data-task=\"%u\" "
			"data-chg=\"%d\" data-fn=\"", failing ? " fail" : "", s,
			st->task, chg != NULL);
		esc_str(out, st->nesting);
		fputs("\" data-obj=\"", out);
		for (uint32_t e = 0; e < st->ev_count; e++) {
			char *t = event_text(&ev[st->ev_first + e]);

			esc_str(out, t);
			fputc(' ', out);
			free(t);
		}
		fputs("\" data-calls=\"", out);
		for (unsigned int k = 0; k < oc->depth; k++)
			fprintf(out, "%sc%u", k ? " " : "", oc->id[k]);
		fprintf(out, "\"><td class=\"n\">%u</td><td class=\"t\">%.3f"
			"</td>", s, s < SIM_STEPS_LIMIT ?
			(double)start_ns[s] / 1000.0 : 0.0);
		for (uint32_t t = 0; t < tasks; t++) {
			if (t != st->task) {
				fputs("<td class=\"lane\"></td>", out);
				continue;
			}
			fputs("<td class=\"lane own\">", out);
			if (oc->depth) {
				fputs("<div class=\"nest\">", out);
				for (unsigned int k = 0; k < oc->depth; k++) {
					fprintf(out, "%s<span class=\"fn\" "
						"data-call=\"c%u\" title=\"click: "
						"collapse this call\">",
						k ? " &gt; " : "", oc->id[k]);
					esc_str(out, oc->name[k]);
					fputs("</span>", out);
				}
				fputs("</div>", out);
			}
			for (uint32_t e = 0; e < st->ev_count; e++) {
				char *txt = event_text(&ev[st->ev_first + e]);

				fputs("<div class=\"ev\">", out);
				esc_str(out, txt);
				fputs("</div>", out);
				free(txt);
			}
			if (chg) {
				fputs("<div class=\"chg\">", out);
				esc(out, chg, chg_len && chg[chg_len - 1] ==
				    '\n' ? chg_len - 1 : chg_len);
				fputs("</div>", out);
			}
			if (st->rec_count) {
				fputs("<div class=\"calls\">", out);
				for (uint32_t k = 0; k < st->rec_count; k++) {
					const struct wpsim_fn_record *rec =
						&g.recs[st->rec_first + k];

					fprintf(out, "%s%s ", k ? "; " : "",
						rec->ret ? "&larr;" : "&rarr;");
					esc_str(out, rec->name);
				}
				fputs("</div>", out);
			}
			if (failing) {
				fprintf(out, "<div class=\"failmsg\">FAIL %s: ",
					sim_failure_kind_name(o->kind));
				esc_str(out, o->message);
				fputs("</div>", out);
			}
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
		/* The calls and returns of this step move the open calls. */
		for (uint32_t k = 0; k < st->rec_count; k++) {
			const struct wpsim_fn_record *rec =
				&g.recs[st->rec_first + k];
			struct open_calls *rc = &open_calls[rec->task < tasks ?
							    rec->task : tasks];

			if (!rec->ret && rc->depth < WPSIM_FG_DEPTH_MAX) {
				rc->id[rc->depth] = call_ids++;
				rc->name[rc->depth++] = rec->name;
			} else if (rec->ret) {
				for (unsigned int d = rc->depth; d-- > 0;) {
					if (rc->name[d] == rec->name) {
						rc->depth = d;
						break;
					}
				}
			}
		}
		op_banners(out, x, s, true);
		op_banners(out, x, s, false);
	}
	fprintf(out, "</tbody></table>\n<script>%s</script>\n</body></html>\n",
		script);
	wpsim_fgraph_free(&g);
	free(open_calls);
	if (fclose(out) != 0) {
		fprintf(stderr, "wpsim: --html %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	return 0;
}

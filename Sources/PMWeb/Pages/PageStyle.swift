/// The page's style sheet (`/static/app.css`): phone first (one column,
/// large targets), three columns side by side from a tablet up, dark by the
/// system's setting; colours kept at WCAG AA contrast in both.
enum PageStyle {
    static let source = #"""
        :root{color-scheme:light dark;--bg:#f6f6f3;--card:#fff;--ink:#1d1d1f;--dim:#4d5156;--line:#c9c9c2;--late:#a8201a;--warn:#7a4f00;--accent:#0b57d0;--over:#dbe7fb}
        @media (prefers-color-scheme:dark){:root{--bg:#141416;--card:#1f1f23;--ink:#ececf0;--dim:#b4b4bd;--line:#4a4a52;--late:#ff9a90;--warn:#ffd27a;--accent:#8ab4f8;--over:#233552}}
        *{box-sizing:border-box}
        body{margin:0;background:var(--bg);color:var(--ink);font:16px/1.45 system-ui,-apple-system,"Segoe UI","Noto Sans","Noto Sans KR","Apple SD Gothic Neo","Malgun Gothic","NanumGothic",sans-serif;word-break:keep-all;overflow-wrap:anywhere}
        .sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
        header{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;padding:.75rem 1rem;border-bottom:1px solid var(--line)}
        header h1{margin:0;font-size:1.25rem;flex:1 1 auto}
        #bar{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
        .why{color:var(--dim);font-size:.85rem}
        .sync{color:var(--dim);font-size:.85rem}
        .sync.offline{color:var(--late)}
        button,select,input,textarea{font:inherit;color:inherit}
        button{min-height:2.5rem;padding:.3rem .9rem;border:1px solid var(--line);border-radius:.5rem;background:var(--card);cursor:pointer}
        button:disabled{cursor:not-allowed;opacity:.6}
        button.primary{background:var(--accent);border-color:var(--accent);color:#fff}
        @media (prefers-color-scheme:dark){button.primary{color:#111}}
        :focus-visible{outline:3px solid var(--accent);outline-offset:2px}
        select,input,textarea{min-height:2.5rem;padding:.3rem .5rem;border:1px solid var(--line);border-radius:.4rem;background:var(--card)}
        main{padding:1rem}
        form.add,form.filters{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end;margin:0 0 .75rem}
        form.add label,form.filters label{display:flex;flex-direction:column;font-size:.85rem;color:var(--dim)}
        form.filters label.check{flex-direction:row;gap:.35rem;align-items:center;min-height:2.5rem}
        form.add input[name=title]{min-width:14rem}
        #status{min-height:1.5rem;margin:.25rem 0 .75rem}
        #status.error{color:var(--late);font-weight:bold}
        .board{display:grid;grid-template-columns:1fr;gap:1rem}
        @media (min-width:48rem){.board{grid-template-columns:repeat(3,minmax(0,1fr))}}
        .column{background:color-mix(in srgb,var(--line) 35%,transparent);border-radius:.75rem;padding:.75rem;min-height:6rem}
        .column.over{background:var(--over);outline:2px dashed var(--accent)}
        .column h2{margin:0 0 .5rem;font-size:1rem;letter-spacing:.03em}
        .count{display:inline-block;min-width:1.6em;padding:0 .4em;border-radius:1em;background:var(--card);text-align:center;font-weight:normal}
        ul.cards{list-style:none;margin:0;padding:0}
        .card{position:relative;background:var(--card);border:1px solid var(--line);border-left:4px solid var(--line);border-radius:.5rem;padding:.6rem .75rem .6rem 2rem;margin:0 0 .6rem}
        .card.dragging{opacity:.4}
        .card.ghost{position:fixed;margin:0;z-index:10;pointer-events:none;opacity:.9;box-shadow:0 6px 18px rgba(0,0,0,.25);list-style:none}
        .grip{position:absolute;left:.35rem;top:.5rem;font-size:1.1rem;color:var(--dim);cursor:grab;touch-action:none;user-select:none;padding:.1rem}
        .card h3{margin:0;font-size:1rem}
        .card p{margin:.3rem 0 0;font-size:.9rem}
        .due,.who,.labels{color:var(--dim)}
        .priority.urgent,.priority.high{font-weight:bold}
        .checklist ol,.comments ol{list-style:none;padding-left:0;margin:.2em 0}
        .checklist li.done{color:var(--dim)}
        .comments .by{color:var(--dim);margin:.3em 0 0}
        .comments .text{white-space:pre-wrap;margin:0}
        .new{display:inline-block;margin-left:.4rem;padding:0 .4em;border-radius:.4em;background:var(--accent);color:#fff;font-size:.75rem;font-weight:bold;vertical-align:middle}
        @media (prefers-color-scheme:dark){.new{color:#111}}
        .card.overdue{border-left-color:var(--late)}
        .card.overdue .due{color:var(--late);font-weight:bold}
        .due.reminded{font-weight:bold;color:var(--ink)}
        .news{font-weight:bold}
        .card.conflict{border-left-color:var(--warn)}
        .conflicted{color:var(--warn)}
        .conflicted button{margin:.25rem .25rem 0 0;min-height:2rem;font-size:.85rem}
        .body{white-space:pre-wrap}
        .actions{display:flex;flex-wrap:wrap;gap:.4rem;margin-top:.5rem}
        .actions select,.actions button{min-height:2.25rem;font-size:.9rem}
        .empty{color:var(--dim);font-style:italic}
        .more{color:var(--dim);font-size:.9rem}
        dialog{border:1px solid var(--line);border-radius:.75rem;background:var(--card);color:var(--ink);max-width:min(32rem,94vw)}
        dialog form{display:flex;flex-direction:column;gap:.6rem}
        dialog label{display:flex;flex-direction:column;gap:.2rem;font-size:.9rem}
        dialog .buttons{display:flex;gap:.5rem;justify-content:flex-end}
        details.history{margin-top:1.5rem}
        details.history li{margin:.25rem 0}
        body.busy{cursor:progress}
        body.disconnected header{border-bottom-color:var(--late)}
        """#
}

package nonidempotent

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"go/version"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/fixutil"
	"github.com/retrylint/retrylint/internal/typesx"
)

// keyFix sets an idempotency-key header on a request that lacks one. A
// request retried by retry sites gets a key generated once before the
// outermost of them; a request retried by its client gets a key generated
// just before it is sent (the client resends the same request).
func (c *checker) keyFix(r *request, rt *retry) *analysis.SuggestedFix {
	file := fixutil.FileOf(c.pass, r.pos)
	if file == nil || fixutil.FileOf(c.pass, rt.send.Pos()) != file || rt.cross() || c.heldRequest(r) || r.sender != nil {
		return nil
	}
	sendStmt := c.stmtOf(rt.send)
	if sendStmt == nil {
		return nil
	}
	var edits []analysis.TextEdit
	key, msg := "", ""
	if len(rt.regions) > 0 {
		anchor := c.stmtOf(rt.regions[len(rt.regions)-1].body)
		if anchor == nil || r.kind == kindValue && !astx.Within(sendStmt, rt.regions[0].body) {
			return nil
		}
		gen, genEdits := c.keyGen(file, anchor.Pos(), rt.send.Pos())
		if gen == "" {
			return nil
		}
		key = c.freshLocal(file, anchor, rt.send.Pos(), "idempotencyKey")
		if key == "" {
			return nil
		}
		edits = append(genEdits, c.insertBefore(file, anchor, key+" := "+gen))
		msg = "Generate an idempotency key once, before the retries, and send it as " + c.headers.names[0]
	} else {
		gen, genEdits := c.keyGen(file, sendStmt.Pos(), sendStmt.Pos())
		if gen == "" {
			return nil
		}
		key, edits = gen, genEdits
		msg = "Send a key generated once for this request as " + c.headers.names[0]
	}
	set := fmt.Sprintf("Header.Set(%s, %s)", strconv.Quote(c.headers.names[0]), key)
	switch r.kind {
	case kindValue:
		id := c.requestIdent(r, rt.send, sendStmt)
		if id == "" {
			return nil
		}
		edits = append(edits, c.insertBefore(file, sendStmt, id+"."+set))
	case kindResty:
		setHeader := fmt.Sprintf("SetHeader(%s, %s)", strconv.Quote(c.headers.names[0]), key)
		if r.rcall != nil {
			edits = append(edits, analysis.TextEdit{Pos: r.rcall.End(), End: r.rcall.End(), NewText: []byte("." + setHeader)})
			break
		}
		id := c.requestIdent(r, rt.send, sendStmt)
		if id == "" {
			return nil
		}
		edits = append(edits, c.insertBefore(file, sendStmt, id+"."+setHeader))
	case kindPost:
		if len(rt.regions) == 0 {
			return nil
		}
		post := c.postEdit(file, r.call, key)
		if post == nil {
			return nil
		}
		edits = append(edits, *post)
		msg = "Send the POST as a request with a key generated once, before the retries, as " + c.headers.names[0]
	}
	return &analysis.SuggestedFix{Message: msg, TextEdits: edits}
}

// requestIdent returns the name of a variable holding the request that is
// in scope, with the same meaning, at the start of the send's statement.
func (c *checker) requestIdent(r *request, send *ast.CallExpr, stmt ast.Stmt) string {
	scope := c.scopeAt(stmt.Pos())
	if scope == nil {
		return ""
	}
	name := ""
	ast.Inspect(send, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || name != "" {
			return name == ""
		}
		obj := c.pass.TypesInfo.Uses[id]
		if !r.vars[obj] || obj.Pos() >= stmt.Pos() {
			return true
		}
		if _, o := scope.LookupParent(id.Name, stmt.Pos()); o == obj {
			name = id.Name
		}
		return true
	})
	return name
}

// postEdit rewrites resp, err := http.Post(url, contentType, body) (or
// client.Post) into the request it stands for, with the key header:
//
//	req, err := http.NewRequest(http.MethodPost, url, body)
//	var resp *http.Response
//	if err == nil {
//		req.Header.Set("Content-Type", contentType)
//		req.Header.Set("Idempotency-Key", key)
//		resp, err = http.DefaultClient.Do(req)
//	}
//
// which is what http.Post does, plus the header. It returns nil when the
// call is not in that simple form.
func (c *checker) postEdit(file *ast.File, call *ast.CallExpr, key string) *analysis.TextEdit {
	fn := c.callee(call)
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if fn == nil || !ok || typesx.PkgPath(fn) != "net/http" || fn.Name() != "Post" || len(call.Args) != 3 || call.Ellipsis.IsValid() {
		return nil
	}
	stmt, ok := c.stmtOf(call).(*ast.AssignStmt)
	if !ok || stmt.Tok != token.DEFINE || len(stmt.Lhs) != 2 || len(stmt.Rhs) != 1 || ast.Unparen(stmt.Rhs[0]) != call {
		return nil
	}
	respID, ok1 := stmt.Lhs[0].(*ast.Ident)
	errID, ok2 := stmt.Lhs[1].(*ast.Ident)
	if !ok1 || !ok2 || errID.Name == "_" {
		return nil
	}
	if respID.Name != "_" && c.pass.TypesInfo.Defs[respID] == nil {
		return nil // resp exists already: the rewrite would leave a stale value on error
	}
	if !c.simple(call.Args[1]) {
		return nil // the content type is evaluated later in the rewrite
	}
	httpName, imp := fixutil.AddImport(c.pass, file, "net/http", stmt.Pos())
	if len(imp) > 0 || !c.resolvesToPkg(httpName, stmt.Pos(), "net/http") {
		return nil
	}
	client := httpName + ".DefaultClient"
	if typesx.RecvName(fn) == "Client" {
		if !c.simple(sel.X) {
			return nil
		}
		client = c.src(file, sel.X)
	}
	req := c.freshLocal(file, stmt, stmt.Pos(), "req")
	u, ct, body := c.src(file, call.Args[0]), c.src(file, call.Args[1]), c.src(file, call.Args[2])
	if req == "" || u == "" || ct == "" || body == "" || client == "" {
		return nil
	}
	indent := fixutil.Indent(c.pass, file, stmt.Pos())
	var b strings.Builder
	fmt.Fprintf(&b, "%s, %s := %s.NewRequest(%s.MethodPost, %s, %s)\n", req, errID.Name, httpName, httpName, u, body)
	if respID.Name != "_" {
		fmt.Fprintf(&b, "%svar %s *%s.Response\n", indent, respID.Name, httpName)
	}
	fmt.Fprintf(&b, "%sif %s == nil {\n", indent, errID.Name)
	fmt.Fprintf(&b, "%s\t%s.Header.Set(\"Content-Type\", %s)\n", indent, req, ct)
	fmt.Fprintf(&b, "%s\t%s.Header.Set(%s, %s)\n", indent, req, strconv.Quote(c.headers.names[0]), key)
	fmt.Fprintf(&b, "%s\t%s, %s = %s.Do(%s)\n", indent, respID.Name, errID.Name, client, req)
	fmt.Fprintf(&b, "%s}", indent)
	return &analysis.TextEdit{Pos: stmt.Pos(), End: stmt.End(), NewText: []byte(b.String())}
}

// simple reports whether evaluating e has no effect and cannot depend on
// when it happens: a constant, or identifiers and field selections.
func (c *checker) simple(e ast.Expr) bool {
	if tv, ok := c.pass.TypesInfo.Types[e]; ok && tv.Value != nil {
		return true
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return true
	case *ast.SelectorExpr:
		return c.simple(e.X)
	}
	return false
}

// hoistFix moves the generation of a per-attempt key before the outermost
// retry site that sends the request, when its operands do not depend on
// the retries: either the whole key expression of the header, or the
// statement that defines the key's variable.
func (c *checker) hoistFix(r *request, rt *retry, k keyEvent, g *ast.CallExpr) *analysis.SuggestedFix {
	file := fixutil.FileOf(c.pass, g.Pos())
	if file == nil || k.value == nil || len(rt.regions) == 0 {
		return nil
	}
	anchor := c.stmtOf(rt.regions[len(rt.regions)-1].body)
	if anchor == nil || !astx.Within(g, anchor) || fixutil.FileOf(c.pass, anchor.Pos()) != file {
		return nil
	}
	const msg = "Generate the idempotency key once, before the retries"
	if value := k.value; astx.Within(g, value) {
		// A header map's value written without its type ({uuid.NewString()})
		// has its one element moved.
		if cl, ok := value.(*ast.CompositeLit); ok && cl.Type == nil {
			if len(cl.Elts) != 1 || !astx.Within(g, cl.Elts[0]) {
				return nil
			}
			value = cl.Elts[0]
		}
		if !c.movable(value, anchor) {
			return nil
		}
		name := c.freshLocal(file, anchor, value.Pos(), "idempotencyKey")
		if name == "" {
			return nil
		}
		text := c.src(file, value)
		if text == "" {
			return nil
		}
		return &analysis.SuggestedFix{Message: msg, TextEdits: []analysis.TextEdit{
			c.insertBefore(file, anchor, name+" := "+text),
			{Pos: value.Pos(), End: value.End(), NewText: []byte(name)},
		}}
	}
	// key := uuid.NewString() inside the retries, used by the header.
	def, ok := c.stmtOf(g).(*ast.AssignStmt)
	if !ok || def.Tok != token.DEFINE || len(def.Lhs) != 1 || len(def.Rhs) != 1 || !astx.Within(g, def.Rhs[0]) {
		return nil
	}
	v := c.varOf(def.Lhs[0])
	if v == nil || len(c.values().vals(v)) != 1 || !c.movable(def.Rhs[0], anchor) {
		return nil
	}
	if c.lookup(v.Name(), anchor.Pos()) != nil || c.declaredElsewhere(anchor, v) {
		return nil
	}
	line, del, ok := c.cutLine(def)
	if !ok {
		return nil
	}
	return &analysis.SuggestedFix{Message: msg, TextEdits: []analysis.TextEdit{
		c.insertBefore(file, anchor, line),
		del,
	}}
}

// movable reports whether e can be evaluated before anchor instead of
// inside it with the same meaning: its variables are declared before
// anchor and not assigned within it, and it calls only generators and
// functions of pure packages.
func (c *checker) movable(e ast.Expr, anchor ast.Stmt) bool {
	ok := true
	ix := c.values()
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			ok = false
		case *ast.CallExpr:
			if tv, isT := c.pass.TypesInfo.Types[n.Fun]; isT && tv.IsType() {
				break
			}
			fn := c.callee(n)
			switch {
			case fn == nil:
				ok = false
			case c.isGenerator(n), fn.Name() == "String" && typesx.RecvName(fn) != "":
			case pureForKeys[typesx.PkgPath(fn)]:
			case typesx.PkgPath(fn) == "time" && typesx.RecvName(fn) != "": // t.UnixNano(), t.Format(...)
			default:
				ok = false
			}
		case *ast.Ident:
			v, isVar := c.pass.TypesInfo.Uses[n].(*types.Var)
			if !isVar || !isLocal(v) {
				break
			}
			if v.Pos() >= anchor.Pos() {
				ok = false
			}
			for _, val := range ix.vals(v) {
				if astx.Within(val, anchor) {
					ok = false
				}
			}
		}
		return ok
	})
	return ok
}

// pureForKeys lists packages whose functions build a key from their
// arguments without effects.
var pureForKeys = map[string]bool{
	"fmt": true, "strconv": true, "strings": true, "encoding/hex": true, "encoding/base64": true,
	"encoding/base32": true,
}

// keyGen returns an expression that makes a new key, valid at every
// position of at, and the edits that import what it needs: the uuid
// package the file already imports (the file's own way of making keys),
// else crypto/rand's Text where the file's Go version has it (1.24); ""
// when neither is available.
func (c *checker) keyGen(file *ast.File, at ...token.Pos) (string, []analysis.TextEdit) {
	for _, spec := range file.Imports {
		path, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			continue
		}
		var gen string
		switch path {
		case "github.com/google/uuid":
			gen = "%s.NewString()"
		case "github.com/gofrs/uuid", "github.com/gofrs/uuid/v5":
			gen = "%[1]s.Must(%[1]s.NewV4()).String()"
		default:
			continue
		}
		name, _ := fixutil.AddImport(c.pass, file, path, at[0])
		ok := true
		for _, pos := range at {
			ok = ok && c.resolvesToPkg(name, pos, path)
		}
		if ok {
			return fmt.Sprintf(gen, name), nil
		}
	}
	if !c.fileAtLeast(file, "go1.24") {
		return "", nil
	}
	name, edits := fixutil.AddImport(c.pass, file, "crypto/rand", at[0])
	for _, pos := range at {
		if !c.resolvesToPkg(name, pos, "crypto/rand") && (len(edits) == 0 || c.lookup(name, pos) != nil) {
			return "", nil
		}
	}
	return name + ".Text()", edits
}

// fileAtLeast reports whether the file's Go version is at least v; an
// unknown version counts as the newest.
func (c *checker) fileAtLeast(file *ast.File, v string) bool {
	fv := c.pass.TypesInfo.FileVersions[file]
	return fv == "" || version.Compare(fv, v) >= 0
}

func (c *checker) scopeAt(pos token.Pos) *types.Scope {
	file := fixutil.FileOf(c.pass, pos)
	if file == nil {
		return nil
	}
	if s := c.pass.TypesInfo.Scopes[file]; s != nil {
		return s.Innermost(pos)
	}
	return nil
}

func (c *checker) lookup(name string, pos token.Pos) types.Object {
	s := c.scopeAt(pos)
	if s == nil {
		return nil
	}
	_, obj := s.LookupParent(name, pos)
	return obj
}

// resolvesToPkg reports whether name, at pos, is the import of path.
func (c *checker) resolvesToPkg(name string, pos token.Pos, path string) bool {
	pn, ok := c.lookup(name, pos).(*types.PkgName)
	return ok && pn.Imported().Path() == path
}

// freshLocal returns base (or base2, base3, ...) when the name is free at
// anchor and at use and declared nowhere in the function around anchor,
// so that a declaration before anchor cannot clash; "" if none is found.
func (c *checker) freshLocal(file *ast.File, anchor ast.Stmt, use token.Pos, base string) string {
	outer := c.outerFunc(anchor)
	for i := 1; i < 10; i++ {
		name := base
		if i > 1 {
			name = fmt.Sprintf("%s%d", base, i)
		}
		if fixutil.FreshName(c.pass.TypesInfo, file, anchor.Pos(), name) != name ||
			fixutil.FreshName(c.pass.TypesInfo, file, use, name) != name {
			continue
		}
		taken := c.claims.Taken(outer, name)
		ast.Inspect(outer, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && id.Name == name {
				taken = true
			}
			return !taken
		})
		if !taken {
			c.claims.Claim(outer, name)
			return name
		}
	}
	return ""
}

// declaredElsewhere reports whether another variable named like v is
// declared in the function around anchor.
func (c *checker) declaredElsewhere(anchor ast.Stmt, v types.Object) bool {
	found := false
	ast.Inspect(c.outerFunc(anchor), func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == v.Name() {
			if obj := c.pass.TypesInfo.Defs[id]; obj != nil && obj != v {
				found = true
			}
		}
		return !found
	})
	return found
}

// outerFunc returns the outermost function declaration or literal that
// holds n.
func (c *checker) outerFunc(n ast.Node) ast.Node {
	cur, ok := c.find.Find(n)
	if !ok {
		return n
	}
	var outer ast.Node = n
	for p := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		outer = p.Node()
	}
	return outer
}

// stmtOf returns the statement of a statement list (a block or a case)
// that holds n, not n itself when n is a block.
func (c *checker) stmtOf(n ast.Node) ast.Stmt {
	cur, ok := c.find.Find(n)
	if !ok {
		return nil
	}
	for ; cur.Valid(); cur = cur.Parent() {
		s, ok := cur.Node().(ast.Stmt)
		if !ok || cur.Node() == n && isBlock(n) {
			continue
		}
		switch cur.Parent().Node().(type) {
		case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
			return s
		case *ast.FuncDecl, *ast.FuncLit:
			return nil
		}
	}
	return nil
}

func isBlock(n ast.Node) bool {
	_, ok := n.(*ast.BlockStmt)
	return ok
}

// cutLine returns the text of stmt with any line comment after it, and an
// edit that removes its line, when the statement is alone on its line.
func (c *checker) cutLine(stmt ast.Stmt) (string, analysis.TextEdit, bool) {
	tf := c.pass.Fset.File(stmt.Pos())
	src, err := c.pass.ReadFile(tf.Name())
	if err != nil {
		return "", analysis.TextEdit{}, false
	}
	start := tf.LineStart(tf.Line(stmt.Pos()))
	if strings.TrimSpace(string(src[tf.Offset(start):tf.Offset(stmt.Pos())])) != "" {
		return "", analysis.TextEdit{}, false
	}
	end := tf.Offset(stmt.End())
	nl := strings.IndexByte(string(src[end:]), '\n')
	if nl < 0 {
		return "", analysis.TextEdit{}, false
	}
	rest := strings.TrimSpace(string(src[end : end+nl]))
	if rest != "" && !strings.HasPrefix(rest, "//") {
		return "", analysis.TextEdit{}, false
	}
	text := strings.TrimRight(string(src[tf.Offset(stmt.Pos()):end+nl]), " \t\r")
	return text, analysis.TextEdit{Pos: start, End: tf.Pos(end + nl + 1)}, true
}

// src returns the source text of n.
func (c *checker) src(file *ast.File, n ast.Node) string { return fixutil.Source(c.pass, n) }

// insertBefore returns an edit that puts text on its own line before stmt.
func (c *checker) insertBefore(file *ast.File, stmt ast.Stmt, text string) analysis.TextEdit {
	return fixutil.InsertStmt(c.pass, file, stmt, false, text)
}

// heldRequest reports whether the request is a holder's or a
// description's (its construction returns a request holder or a
// description), or a literal: it may have no Header map to set.
func (c *checker) heldRequest(r *request) bool {
	if r.kind != kindValue {
		return false
	}
	if r.lit != nil {
		return true // a literal may have no header map to set
	}
	t := c.pass.TypesInfo.TypeOf(r.call)
	if tup, ok := t.(*types.Tuple); ok && tup.Len() > 0 {
		t = tup.At(0).Type()
	}
	// A request value a builder returns is made by a literal, which may
	// have no header map either.
	return holderField(t) != nil || c.descField(t) != nil || typesx.IsNamed(t, "net/http", "Request")
}

// whyNoFix says why a request that gets no fix cannot get one, when the
// reason is its shape: built and sent by a function it is handed the
// method, or made by a request literal; "" otherwise.
func (c *checker) whyNoFix(r *request) string {
	switch {
	case r.sender != nil:
		return "no fix: " + funcName(c.pass.Pkg, r.sender) + " builds the request and sends it, so no header set here can reach it; give it a way to set " + c.headers.names[0]
	case r.kind == kindValue && (r.lit != nil || c.heldRequest(r) && typesx.IsNamed(c.pass.TypesInfo.TypeOf(r.call), "net/http", "Request")):
		return "no fix: the request is made by a literal, which may have no header map to set " + c.headers.names[0] + " in"
	}
	return ""
}

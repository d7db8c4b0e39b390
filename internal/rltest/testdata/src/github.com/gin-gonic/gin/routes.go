package gin

// Routes and groups: signatures only.

type RouterGroup struct{}

func (e *Engine) Group(relativePath string, handlers ...HandlerFunc) *RouterGroup { return nil }
func (e *Engine) PUT(path string, h ...HandlerFunc)                               {}
func (e *Engine) Handle(method, path string, h ...HandlerFunc)                    {}
func (g *RouterGroup) Group(relativePath string, handlers ...HandlerFunc) *RouterGroup {
	return nil
}
func (g *RouterGroup) GET(path string, h ...HandlerFunc)    {}
func (g *RouterGroup) POST(path string, h ...HandlerFunc)   {}
func (g *RouterGroup) DELETE(path string, h ...HandlerFunc) {}

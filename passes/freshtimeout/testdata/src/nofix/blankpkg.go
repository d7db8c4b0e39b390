package nofix

import (
	"context"
	"net/http"
	"time"
)

// A package-level r: renaming the blank request parameter to r would
// capture the use of it inside the handler.
var r = 0

func blankRequest(w http.ResponseWriter, _ *http.Request) {
	_ = r
	c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from the context of the blank \*http.Request parameter$`
	defer cancel()
	use(c)
}

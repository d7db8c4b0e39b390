// Command custom-gcl is golangci-lint v2 with the retrylint module plugin
// built in: the offline equivalent of `golangci-lint custom`. It mirrors
// golangci-lint's own cmd/golangci-lint/main.go; the blank import registers
// the plugin "retrylint".
package main

import (
	"fmt"
	"os"

	"github.com/golangci/golangci-lint/v2/pkg/commands"
	"github.com/golangci/golangci-lint/v2/pkg/exitcodes"

	_ "github.com/retrylint/retrylint/gclplugin"
)

func main() {
	info := commands.BuildInfo{Version: "2.15.0-custom-retrylint", Commit: "n/a", Date: "n/a", GoVersion: "go"}
	if err := commands.Execute(info); err != nil {
		fmt.Fprintf(os.Stderr, "The command is terminated due to an error: %v\n", err)
		os.Exit(exitcodes.Failure)
	}
}

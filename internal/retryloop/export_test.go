package retryloop

// The bounds of the definition's work, for the tests at each bound.
const (
	MaxCandidates  = maxCandidates
	MaxFlowNodes   = maxFlowNodes
	MaxBlockStates = maxBlockStates
	MaxSlots       = maxSlots
)

"""Models: the language-model backends behind one interface (`base.Predictor`: in-process GGUF through
llama-cpp-python, OpenAI-compatible servers), the reward models behind another (`scorer.Scorer`: the trained CPU
model, hand-written signals, an LLM judge), and the one registry that turns spec strings into either
(`registry.load_model`, `registry.load_reward`), with the label definitions they share.

Everything here works on plain observations (lists of `{"time", "event"}`), so `proactive.models` imports no
other package of ours (see ARCHITECTURE.md).
"""

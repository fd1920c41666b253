"""Model backends behind one small interface (`base.Predictor`), chosen by name (`registry.load_model`)."""

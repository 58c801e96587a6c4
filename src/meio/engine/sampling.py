def sample_world(view, rng):  # replaced below
    raise NotImplementedError

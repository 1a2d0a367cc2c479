theorem main (instance_of_x axiom₀ run_cmd_count : Prop) (h : instance_of_x) :
    instance_of_x := h

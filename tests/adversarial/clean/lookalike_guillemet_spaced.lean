theorem «main» (p : Prop) («h axiom» : p) : p := «h axiom»

-- expect: native-decide @ 3
theorem main : 2 + 2 = 4 := by
  native_decide

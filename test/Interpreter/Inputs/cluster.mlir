tirx.kernel @pair(%n: index {tirx.size = "n"}, %A: !tirx.tensor<?xf32, global, sizes = [n]>) launch(grid = [%n floordiv 32], block = [32], cluster = [2]) {
  tirx.return
}

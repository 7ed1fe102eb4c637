tirx.kernel @pair() launch(grid = [2], block = [32], cluster = [2]) {
  tirx.return
}

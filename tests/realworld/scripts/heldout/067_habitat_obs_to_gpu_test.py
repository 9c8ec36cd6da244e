import numpy as np
import torch


rgba = np.zeros((256, 256, 4), dtype=np.uint8)

while True:
    rgb = np.ascontiguousarray(rgba[..., 0:3])
    rgb = torch.from_numpy(rgb).to(device="cuda:0").to(dtype=torch.float32)

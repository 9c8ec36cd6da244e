import torch
import time

t = torch.randn(4, 784, 4, 3, 3)
tic_start = time.time()
torch.det(t)
print("cpu: ", time.time() - tic_start)

t = t.cuda()
tic_start = time.time()
torch.det(t)
print("cuda: ", time.time() - tic_start)

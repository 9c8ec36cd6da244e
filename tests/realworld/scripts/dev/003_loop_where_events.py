import torch
print(torch.__version__)  # My output: 1.4.0
torch.set_default_tensor_type('torch.cuda.FloatTensor')

def torch_loop_test():
    x = torch.rand(50)
    eps = torch.finfo(x.dtype).eps
    for _ in range(100):
        x_new = torch.rand(50)
        alpha = x/(x_new + eps)
        mask = alpha > torch.rand(1)
        x = torch.where(mask, x_new, x)
    return x

s0 = torch.cuda.Event(enable_timing=True)
s1 = torch.cuda.Event(enable_timing=True)
s0.record()
for _ in range(100):
    torch_loop_test()
s1.record()
torch.cuda.synchronize()
print('Elapsed seconds:', s0.elapsed_time(s1)/1000)  # My output: Elapsed seconds: 2.923428466796875
